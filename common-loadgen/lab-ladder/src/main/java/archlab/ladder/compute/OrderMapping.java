package archlab.ladder.compute;

import com.github.dozermapper.core.DozerBeanMapperBuilder;
import com.github.dozermapper.core.Mapper;
import java.util.ArrayList;
import java.util.List;
import org.mapstruct.factory.Mappers;

/**
 * Maps the data layer's entities to the answer's views, the way a {@link Compute.Mapping} says.
 *
 * <p>Thread-safe: both mappers are built once and shared (Dozer's mapper is thread-safe once built, and caches its
 * class mappings; MapStruct's is stateless).
 */
public final class OrderMapping {

    // tag::mappers[]
    /** WRONG on a hot path: Dozer finds each property by name and reads and writes it by reflection, at every call. */
    private static final Mapper REFLECTION = DozerBeanMapperBuilder.buildDefault();
    /** RIGHT: MapStruct's processor wrote plain {@code view.setX(entity.getX())} calls at compile time. */
    private static final OrderViewMapper GENERATED = Mappers.getMapper(OrderViewMapper.class);
    // end::mappers[]

    private OrderMapping() {
    }

    /** @return the views of {@code entities}, in their order */
    public static List<OrderView> views(List<OrderEntity> entities, Compute.Mapping mapping) {
        List<OrderView> views = new ArrayList<>(entities.size());
        for (OrderEntity e : entities) {
            views.add(mapping == Compute.Mapping.REFLECTION ? REFLECTION.map(e, OrderView.class) : GENERATED.view(e));
        }
        return views;
    }
}
