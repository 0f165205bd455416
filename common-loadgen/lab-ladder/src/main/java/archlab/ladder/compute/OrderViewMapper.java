package archlab.ladder.compute;

import org.mapstruct.Mapper;
import org.mapstruct.ReportingPolicy;

/**
 * The fast mapping: MapStruct writes this interface's implementation at compile time
 * ({@code target/generated-sources/annotations/.../OrderViewMapperImpl.java}), plain getter-to-setter calls the JIT
 * inlines, where Dozer looks every property up by reflection at each call. The columns the view does not show
 * ({@code userId}, {@code address}, {@code remark}) are left behind on purpose, so they are not reported.
 *
 * <p>Thread-safe: the generated class holds no state.
 */
@Mapper(unmappedSourcePolicy = ReportingPolicy.IGNORE)
public interface OrderViewMapper {

    /** @return a view of {@code entity} */
    OrderView view(OrderEntity entity);
}
