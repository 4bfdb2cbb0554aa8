import type { Migration, MigrationProvider } from "kysely";
import type { Dialect } from "~/db/normalize";
import { initialMigration } from "~/db/migrations/0001-initial";
import { leadDeliveriesMigration } from "~/db/migrations/0002-lead-deliveries";
import { backOfficeMigration } from "~/db/migrations/0003-back-office";
import { postEditingMigration } from "~/db/migrations/0004-post-editing";
import { mediaMigration } from "~/db/migrations/0005-media";
import { legalEditingMigration } from "~/db/migrations/0006-legal-editing";
import { leadWorkflowMigration } from "~/db/migrations/0007-lead-workflow";
import { jobLeasesMigration } from "~/db/migrations/0008-job-leases";
import { leadSearchMigration } from "~/db/migrations/0009-lead-search";
import { pageViewsMigration } from "~/db/migrations/0010-page-views";
import { ssoIdentitiesMigration } from "~/db/migrations/0011-sso-identities";
import { leadFirstTouchMigration } from "~/db/migrations/0012-lead-first-touch";
import { auditChainMigration } from "~/db/migrations/0013-audit-chain";
import { erasureMigration } from "~/db/migrations/0014-erasure";
import { contentCoreMigration } from "~/db/migrations/0015-content-core";
import { navigationMigration } from "~/db/migrations/0016-navigation";
import { redirectsMigration } from "~/db/migrations/0017-redirects";
import { applicationPositionsMigration } from "~/db/migrations/0018-application-positions";
import { firstPublicationMigration } from "~/db/migrations/0019-first-publication";
import { localesMigration } from "~/db/migrations/0020-locales";
import { translationsMigration } from "~/db/migrations/0021-translations";
import { invitationLocalesMigration } from "~/db/migrations/0022-invitation-locales";
import { cdnPurgesMigration } from "~/db/migrations/0023-cdn-purges";

// Migrations are modules, not files read at runtime: the server is bundled by Vite.
// Names sort in the order they run; never rename or edit one that has shipped, add a new one.
export function migrationProvider(dialect: Dialect): MigrationProvider {
  return {
    async getMigrations(): Promise<Record<string, Migration>> {
      return {
        "0001-initial": initialMigration(dialect),
        "0002-lead-deliveries": leadDeliveriesMigration(dialect),
        "0003-back-office": backOfficeMigration(dialect),
        "0004-post-editing": postEditingMigration(dialect),
        "0005-media": mediaMigration(dialect),
        "0006-legal-editing": legalEditingMigration(dialect),
        "0007-lead-workflow": leadWorkflowMigration(dialect),
        "0008-job-leases": jobLeasesMigration(dialect),
        "0009-lead-search": leadSearchMigration(dialect),
        "0010-page-views": pageViewsMigration(dialect),
        "0011-sso-identities": ssoIdentitiesMigration(dialect),
        "0012-lead-first-touch": leadFirstTouchMigration(dialect),
        "0013-audit-chain": auditChainMigration(dialect),
        "0014-erasure": erasureMigration(dialect),
        "0015-content-core": contentCoreMigration(dialect),
        "0016-navigation": navigationMigration(dialect),
        "0017-redirects": redirectsMigration(dialect),
        "0018-application-positions": applicationPositionsMigration(dialect),
        "0019-first-publication": firstPublicationMigration(dialect),
        "0020-locales": localesMigration(dialect),
        "0021-translations": translationsMigration(dialect),
        "0022-invitation-locales": invitationLocalesMigration(dialect),
        "0023-cdn-purges": cdnPurgesMigration(dialect),
      };
    },
  };
}
