// The `c5c3-sim grafana|trickster|rancher|monitoring` subcommands: one
// stand-in, or all three wired together (the backend's registrations answer
// with the Grafana stand-in's URL, mint its API keys for client orgs and
// create its folders and datasources). Each prints one line per server,
// `<name> listening on <url>`, then serves until SIGINT or SIGTERM (exit 0).
//
//   common:    --listen HOST:PORT (default 127.0.0.1:0)  --tls  --faults FILE  --env-out FILE
//   grafana:   --admin-user U --admin-password P  --api-key KEY[:ORG[:ROLE]]...
//   trickster: --token T  --grafana-url URL  --grafana-token KEY  --owner-id N
//   rancher:   --token ID:SECRET[:USER[:TTL]]...  --max-ttl DURATION
//   monitoring: --grafana-listen, --trickster-listen, --rancher-listen (instead of --listen),
//              --token T (the backend's), --rancher-token ...; the Grafana API key is generated
//
// --env-out writes KEY=VALUE lines for test scripts: GRAFANA_URL, GRAFANA_API_KEY,
// GRAFANA_CA_FILE (with --tls), TRICKSTER_URL, TRICKSTER_TOKEN, RANCHER_URL, RANCHER_TOKEN.
#pragma once

#include <string>
#include <vector>

namespace c5c3::sim::monitoring {

// Returns the process exit code; 2 on a usage error.
int run_standin_command(const std::string& name, const std::vector<std::string>& args);
bool is_standin_command(const std::string& name);

}  // namespace c5c3::sim::monitoring
