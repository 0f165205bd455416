package archlab.loadgen.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * A test class that takes seconds, not milliseconds: short load runs, compiles of fixture modules, thousands of
 * seeded operations. It runs with {@code -Dslow} ({@code mvn test -Dslow}: every fast test and these; CI runs it), so
 * that plain {@code mvn test} stays a fast check; {@code mvn test -Dslow -Dgroups=slow} runs these alone (tag
 * {@code slow}). The flag is a JUnit condition, so the book's claims tables list it in the test's "needs" column like any
 * other run flag.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag("slow")
@EnabledIfSystemProperty(named = "slow", matches = ".*", disabledReason = "a multi-second check: mvn test -Dslow")
public @interface MultiSecondCheck {
}
