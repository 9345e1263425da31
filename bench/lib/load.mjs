// Closed-loop HTTP load with autocannon (loopback only): requests per second and latency percentiles.
import autocannon from "autocannon";
import { loopbackUrl } from "./net.mjs";

/**
 * Runs autocannon against one URL. Returns {rps (mean), p50Ms, p99Ms, requests, non2xx, errors,
 * statuses}. `expectStatus` (e.g. 304) counts other statuses as failures.
 */
export async function hammer(url, { connections = 50, seconds = 8, headers = {}, pipelining = 1 } = {}) {
  loopbackUrl(url);
  const result = await autocannon({ url, connections, duration: seconds, headers, pipelining, timeout: 10 });
  const statuses = {};
  for (const [k, v] of Object.entries(result.statusCodeStats ?? {})) statuses[k] = v.count;
  return {
    rps: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    statuses,
  };
}
