/**
 * The downstream stubs over loopback HTTP, for a service that runs (and is killed) as its own process while the stubs
 * and their books stay in the runner's JVM: {@link archlab.downstream.remote.DownstreamServer} serves a
 * {@link archlab.downstream.Downstream} bundle on 127.0.0.1, and {@link archlab.downstream.remote.RemoteDownstream}
 * holds the three clients that implement the same ports ({@link archlab.downstream.Inventory},
 * {@link archlab.downstream.Payments}, {@link archlab.downstream.Notifier}). Every call carries the caller's remaining
 * deadline; every stub exception comes back as the same type with the same message and fields. The contract of a call
 * over the wire, with what a timeout and a failed connection mean, is on {@code RemoteDownstream}.
 */
package archlab.downstream.remote;
