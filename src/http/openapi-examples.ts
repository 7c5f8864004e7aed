// Examples for the OpenAPI document: one consistent story (a league, a game with one claimed position, its
// official, a payment, a webhook endpoint) attached to the shared components, and `exampleOf`, which builds
// any other example from a schema and those. test/http/openapi-examples.test.ts validates every example
// in the document against its schema.

type Schema = Record<string, unknown>

const ids = {
  leagueId: 'lpa782kfhh25wqxgr1lsnk9k',
  gameId: 'g3bq3q45mzz2fi9vaao2sb99',
  positionId: 'px2hac1sfzlasxptjze7vsl9',
  userId: 'uee7uqzs81u7sq4e4az49b4c',
  webhookId: 'wcmoyv1mzch76yy5u1rabtyi',
  paymentId: 'p9siinn65qc9xcnuh129w24c',
  deliveryId: 'dl26q8aoh7tg7f7so8wi3kl5',
}

/** Ids of the story, by parameter name. */
export const ID_EXAMPLES: Record<string, string> = ids
const EVENT_ID = 'evt_ed4k5jo9bmow1j86y9ehco9u'
const createdAt = '2026-04-20T09:30:00.000Z'

const league = {
  id: ids.leagueId,
  name: 'Metro Youth Soccer',
  paymentMode: 'offline',
  currency: 'usd',
  source: 'acme',
  externalId: 'league-1',
  createdAt,
  timeZone: 'America/New_York',
  gameMinutes: 90,
  travelBufferMinutes: 30,
  maxGamesPerDay: null,
  conflictPolicy: 'allow',
}
const position = {
  id: ids.positionId,
  label: 'Referee',
  payCents: 4500,
  payDollars: 45,
  status: 'claimed',
  minLevel: 2,
}
const gameSummary = {
  id: ids.gameId,
  leagueId: ids.leagueId,
  sport: 'soccer',
  startsAt: '2026-05-02T15:00:00.000Z',
  durationMinutes: 90,
  endsAt: '2026-05-02T16:30:00.000Z',
  location: 'Field 1',
  venue: 'Riverside Park',
  status: 'claimed',
  latitude: 40.7128,
  longitude: -74.006,
  source: 'acme',
  externalId: 'g-1',
}
const claimOfficial = {
  id: ids.userId,
  name: 'Sam Whistle',
  email: 'sam@example.com',
  claimStatus: 'confirmed',
}
const official = {
  userId: ids.userId,
  leagueId: ids.leagueId,
  status: 'approved',
  name: 'Sam Whistle',
  email: 'sam@example.com',
  externalId: 'ref-7',
  source: 'acme',
  createdAt,
  level: 3,
  confirmed: true,
}
const payment = {
  id: ids.paymentId,
  positionId: ids.positionId,
  officialId: ids.userId,
  amountCents: 4500,
  amountDollars: 45,
  currency: 'usd',
  mode: 'offline',
  status: 'paid',
  paidAt: '2026-05-03T10:00:00.000Z',
  failureCode: null,
  failureMessage: null,
  createdAt: '2026-05-02T19:00:00.000Z',
}
const game = { ...gameSummary, positions: [position] }
const positionDetail = { ...position, official: claimOfficial, payment: null }
const webhookEndpoint = {
  id: ids.webhookId,
  url: 'https://hooks.acme.example/refdesk',
  events: ['game.created', 'position.claimed'],
  source: 'acme',
  createdAt,
  disabled: false,
  disabledAt: null,
}

/** One example per shared component, by component name. */
export const COMPONENT_EXAMPLES: Record<string, unknown> = {
  League: league,
  LeagueListItem: { ...league, gameCount: 2, memberCount: 2 },
  LeagueDetail: { ...league, games: [game], officials: [official] },
  Position: position,
  PositionDetail: positionDetail,
  GameSummary: gameSummary,
  Game: game,
  GameDetail: { ...gameSummary, positions: [positionDetail] },
  ClaimOfficial: claimOfficial,
  Official: official,
  Payment: payment,
  Assignment: {
    positionId: ids.positionId,
    gameId: ids.gameId,
    label: 'Referee',
    payCents: 4500,
    payDollars: 45,
    status: 'claimed',
    game: gameSummary,
    official: claimOfficial,
    payment: null,
  },
  WebhookEndpoint: webhookEndpoint,
  CreatedWebhookEndpoint: { ...webhookEndpoint, secret: `sec_${'3f9a'.repeat(12)}` },
  Delivery: {
    id: ids.deliveryId,
    endpointId: ids.webhookId,
    eventId: EVENT_ID,
    event: 'position.claimed',
    status: 'succeeded',
    attempts: 1,
    lastStatusCode: 204,
    lastError: null,
    createdAt: '2026-04-21T12:00:00.000Z',
    lastAttemptAt: '2026-04-21T12:00:00.120Z',
    nextAttemptAt: null,
    deliveredAt: '2026-04-21T12:00:00.180Z',
  },
  Recovered: { recovered: 12 },
}

const STRING_FORMATS: Record<string, string> = {
  'date-time': '2026-05-02T15:00:00.000Z',
  uri: 'https://hooks.acme.example/refdesk',
  email: 'sam@example.com',
}

/**
 * An example for a schema: its own example if it has one, else the referenced component's, else one
 * built from its parts (an object from its properties, an array of one item, the first enum value).
 */
export function exampleOf(schema: Schema, components: Record<string, Schema>, depth = 0): unknown {
  if (depth > 20) return null
  const next = (part: unknown) => exampleOf((part ?? {}) as Schema, components, depth + 1)
  if (typeof schema.$ref === 'string') return next(components[schema.$ref.split('/').pop()!])
  if (schema.example !== undefined) return schema.example
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0]
  if (schema.const !== undefined) return schema.const
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0]
  const choices = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined
  if (choices) return next(choices.find((choice) => choice.type !== 'null') ?? choices[0])
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type
  switch (type) {
    case 'object':
      return Object.fromEntries(
        Object.entries((schema.properties ?? {}) as Record<string, Schema>).map(([key, value]) => [
          key,
          // Ids named like the story's keep to the story.
          value.type === 'string' && ID_EXAMPLES[key] !== undefined ? ID_EXAMPLES[key] : next(value),
        ]),
      )
    case 'array':
      return [next(schema.items)]
    case 'string':
      return STRING_FORMATS[schema.format as string] ?? 'text'
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 1
    case 'boolean':
      return true
    default:
      return null
  }
}
