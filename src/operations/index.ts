// Every REST operation but the index, in the order the index and the OpenAPI document list them: the
// spec's (one MCP tool each), then RefDesk's extensions (REST only, but for the assignor's three tools).
import { assignmentOperations } from './assignments.js'
import { crewOperations } from './crews.js'
import { gameOperations } from './games.js'
import { leagueOperations } from './leagues.js'
import { officialExtensionOperations, officialOperations } from './officials.js'
import type { Operation } from './operation.js'
import { paymentOperations } from './payments.js'
import { planOperations } from './plans.js'
import { webhookExtensionOperations, webhookOperations } from './webhooks.js'

export const OPERATIONS: readonly Operation[] = [
  ...leagueOperations,
  ...gameOperations,
  ...officialOperations,
  ...assignmentOperations,
  ...paymentOperations,
  ...webhookOperations,
]

/** Additive operations beyond the spec, each marked `extension`: REST and the document (MCP: the assignor's only). */
export const EXTENSION_OPERATIONS: readonly Operation[] = [
  ...crewOperations,
  ...officialExtensionOperations,
  ...webhookExtensionOperations,
  ...planOperations,
]

export const REST_OPERATIONS: readonly Operation[] = [...OPERATIONS, ...EXTENSION_OPERATIONS]
