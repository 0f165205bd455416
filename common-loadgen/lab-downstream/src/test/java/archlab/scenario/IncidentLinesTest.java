package archlab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class IncidentLinesTest {

    @Test
    @DisplayName("the incident is selected by name only: -Dscenarios alone runs the five of the catalogue, -Dscenarios=incident runs it")
    void incidentIsByNameOnly() {
        assertThat(ScenarioProgress.selected(null)).extracting(Scenario::name).doesNotContain("incident").hasSize(5);
        assertThat(ScenarioProgress.selected("incident")).extracting(Scenario::name).containsExactly("incident");
        assertThat(Scenario.incident().trigger()).isPresent();
        assertThat(Scenario.incident().clientRetries()).isEqualTo(Scenario.retryStorm().clientRetries());
    }

    @Test
    @DisplayName("over HTTP a scenario run prints the server's lines, and the queue wait before the trigger, at its peak and after, read from server_timeline")
    void serverLinesReadTheSeries() {
        Map<String, Object> extras = new LinkedHashMap<>();
        extras.put("transport", "http server=tomcat");
        extras.put("server", "tomcat busy_threads_max=200");
        // 100 ms intervals: 0.0-0.9 s before the 1.0-2.0 s trigger, the peak at 1.5 s, 2.5-2.9 s after
        extras.put("server_timeline", "interval=100ms from=the run's start queue_wait_max_ms="
                + "1,2,3,4,5,6,7,8,9,10,50,60,70,80,90,400,90,80,70,60,50,40,30,20,10,5,4,3,2,1,300 busy_max=1");
        assertThat(ScenarioProgress.serverLines(Scenario.incident(), extras, Duration.ofSeconds(3)))
                .startsWith("transport=http server=tomcat", "server=tomcat busy_threads_max=200")
                .last().asString()
                .startsWith("queue_wait_max before_trigger=10.0ms peak=400.0ms at=1.5s after=5.0ms");
        assertThat(ScenarioProgress.serverLines(Scenario.incident(), Map.of("transport", "inprocess"), Duration.ofSeconds(3)))
                .isEmpty();
    }
}
