package io.github.routingkit.examples.audit;

import io.github.routingkit.audit.AuditReport;
import io.github.routingkit.audit.InMemoryAuditRecorder;
import io.github.routingkit.audit.OrderingAudit;

/** Audits a recorder keeping every finding (the tests compare them all). */
final class OrderingAuditReports {
  private OrderingAuditReports() {}

  static AuditReport all(InMemoryAuditRecorder recorder) {
    OrderingAudit audit = OrderingAudit.builder().maxFindings(Integer.MAX_VALUE).build();
    recorder.records().forEach(audit::accept);
    return audit.report();
  }
}
