package archlab.run;

import java.util.Properties;

/**
 * What takes the reader's {@code -Dlab.*} overrides ({@link LabRun}, {@link CapacitySweep}): each applies its own keys
 * of a {@link LabProperties}; reading them from the system properties or any {@link Properties} is written once, here.
 *
 * @param <T> the type that takes them, returned for chaining
 */
public interface LabOverrides<T> {

    /**
     * Applies this type's keys of {@code lab}. All or nothing: every value is checked first, and only when all are
     * good are they applied, so bad input leaves this object exactly as it was.
     */
    T withOverrides(LabProperties lab);

    /**
     * Applies the reader's {@code -Dlab.*} overrides from the system properties.
     *
     * @throws IllegalArgumentException before anything runs, for an unknown {@code lab.*} key or a bad value
     *                                  (see {@link LabProperties})
     */
    default T withOverrides() {
        return withOverrides(System.getProperties());
    }

    /**
     * Applies {@code lab.*} overrides from {@code p}, read by {@link LabProperties}: an unknown {@code lab.*} key or a
     * bad value throws IllegalArgumentException naming it; all or nothing, as {@link #withOverrides(LabProperties)}.
     */
    default T withOverrides(Properties p) {
        return withOverrides(LabProperties.read(p));
    }
}
