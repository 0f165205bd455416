/**
 * The randomized fault check of chapter 12.3: many short seeded runs, each under a fault mix drawn at random from the
 * whole space of the scenario catalogue ({@link archlab.chaos.ChaosMix}), each judged after reconcile and drain
 * against every money, delivery and deadline invariant ({@link archlab.chaos.Invariant},
 * {@link archlab.chaos.ChaosVerdict}). {@link archlab.chaos.ChaosRun} is the loop every checkpoint shares; the run of
 * one mix is the checkpoint's own. {@code -Dchaos} turns it on; {@code -Dchaos.seeds} and {@code -Dchaos.seed} are
 * read by {@link archlab.chaos.ChaosProperties}.
 */
package archlab.chaos;
