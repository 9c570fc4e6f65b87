// alertmanager.AlertmanagerReconciler (monitoring-controllers.txt;
// apis-monitoring.md section 6) on the order runner. It follows the reference
// document, i.e. upstream before 4441613e (apis.md 5.4: HEAD renamed the
// AlertmanagerConfig and the selector label): after the detector gate, a
// deleted Alertmanager is skipped; without an APIService of group
// inbox.monitoring.appscode.com nothing is done; otherwise the Alertmanager
// is patched (spec.alertmanagerConfigSelector.matchLabels
// app.kubernetes.io/name=inbox-agent, spec.alertmanagerConfigMatcherStrategy
// None) and the AlertmanagerConfig inbox-agent beside it carries the webhook
// receiver https://<service>.<namespace>.svc:443/alerts of that APIService.
// Watches: For(Alertmanager); APIServices of the inbox group wake every
// Alertmanager.
#pragma once

#include "actors/runtime/runner/declaration.hpp"

#include <memory>

namespace c5c3::monitoring {

runtime::order_plan plan_alertmanager(const runtime::sense_snapshot& s);

std::shared_ptr<const runtime::kind_declaration> alertmanager_declaration();

}  // namespace c5c3::monitoring
