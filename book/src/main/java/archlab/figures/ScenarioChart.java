package archlab.figures;

import archlab.compare.ScenarioTable;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.awt.Color;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.style.CategoryStyler;
import org.knowm.xchart.style.Styler;

/**
 * Chapter 12.3's scenario table ({@code scenarios.json}, written by {@link ScenarioTable#write}) as grouped
 * bars, scenario × checkpoint, in one PNG of two panels:
 * <ol>
 *   <li><b>goodput</b>: completed / offered, %;</li>
 *   <li><b>money lost</b>: orders charged but not PAID plus double charges — the customer's money the shop
 *       cannot account for at the end of the run.</li>
 * </ol>
 * Each checkpoint's bars are in its colour ({@link CheckpointColours}). A checkpoint without a row for some scenario
 * is drawn as 0 there and its legend entry says which are missing.
 * Stateless and thread-safe.
 */
public final class ScenarioChart {

    static final int WIDTH = 1000;
    static final int PANEL_HEIGHT = 520;

    private static final ObjectMapper JSON = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private ScenarioChart() {
    }

    /** @return whether {@code root} looks like a scenario table: an array of rows with scenario and module */
    static boolean accepts(JsonNode root) {
        return root.isArray() && !root.isEmpty() && root.get(0).path("scenario").isTextual()
                && root.get(0).path("module").isTextual();
    }

    /** Reads a {@code scenarios.json}. */
    static List<ScenarioTable.Row> read(Path json) {
        try {
            return JSON.readValue(json.toFile(), new TypeReference<List<ScenarioTable.Row>>() { });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the scenario table " + json, e);
        }
    }

    /** @return goodput of a row, %: completed / offered (0 when nothing was offered) */
    static double goodputPercent(ScenarioTable.Row r) {
        return r.requests().offered() == 0 ? 0 : 100.0 * r.requests().completed() / r.requests().offered();
    }

    /** @return money lost in a row: charged-not-PAID orders plus double charges (a negative, unmeasured figure counts 0) */
    static double moneyLost(ScenarioTable.Row r) {
        return Math.max(0, r.money().chargedNotPaid()) + Math.max(0, r.money().doubleCharges());
    }

    /**
     * @param scenariosJson a {@code scenarios.json}
     * @param png           where to write the two-panel chart
     * @return {@code png}
     * @throws IllegalArgumentException if the table has no row
     */
    public static Path render(Path scenariosJson, Path png) {
        List<ScenarioTable.Row> rows = read(scenariosJson);
        if (rows.isEmpty()) {
            throw new IllegalArgumentException(scenariosJson + " has no rows");
        }
        ChartImages.headless();
        CategoryChart goodput = panel(rows, "Goodput by scenario and checkpoint (completed / offered)", "goodput (%)",
                ScenarioChart::goodputPercent);
        goodput.getStyler().setYAxisMin(0.0);
        goodput.getStyler().setYAxisMax(110.0); // room for the value above a 100% bar
        CategoryChart money = panel(rows, "Money lost by scenario and checkpoint (charged but not PAID + double charges)",
                "orders (charges)", ScenarioChart::moneyLost);
        money.getStyler().setYAxisMin(0.0);
        double most = rows.stream().mapToDouble(ScenarioChart::moneyLost).max().orElse(0);
        money.getStyler().setYAxisMax(PercentileChart.niceCeiling(Math.max(1, most) * 1.12));
        return ChartImages.writePng(ChartImages.stack(List.of(ChartImages.image(goodput), ChartImages.image(money))), png);
    }

    /** One panel: a group of bars per scenario, one bar per checkpoint in its {@link CheckpointColours colour}. */
    static CategoryChart panel(List<ScenarioTable.Row> rows, String title, String yTitle,
                                       ToDoubleFunction<ScenarioTable.Row> value) {
        CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(PANEL_HEIGHT).title(title)
                .xAxisTitle("scenario").yAxisTitle(yTitle).build();
        CategoryStyler styler = chart.getStyler();
        styler.setLegendPosition(Styler.LegendPosition.OutsideS);
        styler.setLegendLayout(Styler.LegendLayout.Horizontal);
        styler.setLabelsVisible(true);
        styler.setLabelsPosition(1.0); // the value sits on the bar's top edge, readable even for a zero-height bar
        styler.setLabelsFontColorAutomaticEnabled(false);
        styler.setLabelsFontColor(Color.BLACK);
        styler.setYAxisDecimalPattern("#,##0.#");
        styler.setAvailableSpaceFill(0.8);
        Set<String> scenarios = new LinkedHashSet<>();
        Set<String> modules = new LinkedHashSet<>();
        rows.forEach(r -> {
            scenarios.add(r.scenario());
            modules.add(r.module());
        });
        List<String> categories = List.copyOf(scenarios);
        int others = 0;
        for (String module : modules) {
            List<Double> ys = new ArrayList<>();
            List<String> missing = new ArrayList<>();
            for (String scenario : categories) {
                ScenarioTable.Row row = rows.stream().filter(r -> r.module().equals(module) && r.scenario().equals(scenario))
                        .findFirst().orElse(null);
                if (row == null) {
                    missing.add(scenario);
                }
                ys.add(row == null ? 0.0 : value.applyAsDouble(row));
            }
            CategorySeries bars = chart.addSeries(missing.isEmpty() ? module : module + " (no run: " + String.join(", ", missing) + ")",
                    categories, ys);
            Optional<Color> colour = CheckpointColours.of(module);
            bars.setFillColor(colour.orElse(CheckpointColours.other(others)));
            others += colour.isPresent() ? 0 : 1;
        }
        return chart;
    }
}
