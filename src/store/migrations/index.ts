// Numbered migrations, registered statically so the compiled package needs no directory scan.
import type { Migration, MigrationProvider } from 'kysely'
import * as m0001 from './0001_initial.js'
import * as m0002 from './0002_webhooks.js'
import * as m0003 from './0003_app.js'
import * as m0004 from './0004_outbox_fanout.js'
import * as m0005 from './0005_developer_surface.js'
import * as m0006 from './0006_organizer.js'
import * as m0007 from './0007_webhook_toolkit.js'
import * as m0008 from './0008_schedule_data.js'
import * as m0009 from './0009_notifications.js'
import * as m0010 from './0010_availability.js'
import * as m0012 from './0012_key_hash_only.js'
import * as m0013 from './0013_session_idle.js'
import * as m0015 from './0015_assignment_plans.js'
import * as m0016 from './0016_delivery_source.js'
import * as m0017 from './0017_profile_zone_chosen.js'
import * as m0018 from './0018_notifications_unused_index.js'
import * as m0019 from './0019_notifications_by_game.js'
import * as m0020 from './0020_consent.js'
import * as m0021 from './0021_venues_and_plan_limits.js'
import * as m0022 from './0022_calendar_backoff.js'
import * as m0023 from './0023_canonical_time_zones.js'
import * as m0024 from './0024_turnbacks.js'

const migrations: Record<string, Migration> = {
  '0001_initial': m0001,
  '0002_webhooks': m0002,
  '0003_app': m0003,
  '0004_outbox_fanout': m0004,
  '0005_developer_surface': m0005,
  '0006_organizer': m0006,
  '0007_webhook_toolkit': m0007,
  '0008_schedule_data': m0008,
  '0009_notifications': m0009,
  '0010_availability': m0010,
  '0012_key_hash_only': m0012,
  '0013_session_idle': m0013,
  '0015_assignment_plans': m0015,
  '0016_delivery_source': m0016,
  '0017_profile_zone_chosen': m0017,
  '0018_notifications_unused_index': m0018,
  '0019_notifications_by_game': m0019,
  '0020_consent': m0020,
  '0021_venues_and_plan_limits': m0021,
  '0022_calendar_backoff': m0022,
  '0023_canonical_time_zones': m0023,
  '0024_turnbacks': m0024,
}

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
}
