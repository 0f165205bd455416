/**
 * What the lab's HTTP servers share, apart from what they serve: ports on 127.0.0.1
 * ({@link archlab.loopback.LoopbackPort}), one servlet in an embedded Tomcat bound there
 * ({@link archlab.loopback.LoopbackTomcat}), and Tomcat's own errors as the server's JSON
 * ({@link archlab.loopback.JsonErrorValve}). It knows no other package of the harness, so that both the order service's
 * front ({@code archlab.http}) and the downstream stubs' server ({@code archlab.downstream.remote}) use it without a
 * cycle between them.
 */
package archlab.loopback;
