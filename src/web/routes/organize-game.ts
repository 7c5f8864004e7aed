// The organizer's game page: Assign (with "Assign anyway" after a conflict the organizer may override),
// Unassign, Edit, Cancel game behind its confirmation, Add position and Remove position. Each action is the
// REST operation's own service, so it writes the same events in the same transaction. A game or position the
// person does not organize answers the one Not found page.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { assignOfficial, unassignPosition } from '../../domain/assignments/assignments.js'
import { isOverridable, type OverridableRefusal } from '../../domain/availability/conflicts.js'
import { addPosition, removePosition } from '../../domain/games/crews.js'
import { findGameDesk } from '../../domain/pages/organize-game.js'
import { instantOfWallTime } from '../../time.js'
import { cancelGame, updateGame } from '../../domain/games/games.js'
import { parseWith } from '../../domain/core/parse.js'
import type { Deps } from '../../domain/core/deps.js'
import type { Person } from '../../domain/people/sessions.js'
import { PositionInput, UpdateGameBody } from '../../schemas/games.js'
import { LEVEL } from '../../schemas/schedule.js'
import type { WebContext } from '../context.js'
import { field, idField, queryString } from '../forms.js'
import { idParam, signedIn } from '../guards.js'
import { act, noticeOf, type Notices, type Refusals } from '../notices.js'
import { paths } from '../paths.js'

type Code =
  | 'assigned'
  | OverridableRefusal
  | 'holds_position'
  | 'level_too_low'
  | 'taken'
  | 'not_open'
  | 'not_official'
  | 'unassigned'
  | 'not_claimed'
  | 'saved'
  | 'invalid_start'
  | 'invalid_duration'
  | 'invalid_location'
  | 'cancelled'
  | 'position_added'
  | 'position_removed'
  | 'invalid_position'
  | 'last_position'
  | 'closed'
  | 'too_many_positions'

const NOTICES: Notices<Code> = {
  assigned: { kind: 'success', text: 'Assigned. The official is emailed the game.' },
  schedule_conflict: {
    kind: 'error',
    text: 'Not assigned: that official holds another game at this time, or too close to it to travel between them.',
  },
  holds_position: {
    kind: 'error',
    text: 'Not assigned: that official already holds a position of this game. One official works one position a game.',
  },
  official_unavailable: {
    kind: 'error',
    text: 'Not assigned: that official has said they are unavailable at this time.',
  },
  daily_limit_reached: {
    kind: 'error',
    text: 'Not assigned: that official already has the most games this league allows in one day.',
  },
  level_too_low: {
    kind: 'error',
    text: 'Not assigned: that official’s level is below the minimum this position asks for.',
  },
  taken: { kind: 'error', text: 'Not assigned: someone else holds that position now.' },
  not_open: { kind: 'error', text: 'That position is not open any more.' },
  not_official: { kind: 'error', text: 'That person is not an approved official of this league.' },
  unassigned: { kind: 'success', text: 'Unassigned. The position is open again; the official is emailed.' },
  not_claimed: { kind: 'error', text: 'Nobody holds that position any more.' },
  saved: {
    kind: 'success',
    text: 'Game updated. Officials holding it are emailed any change of time, length or place.',
  },
  invalid_start: { kind: 'error', text: 'Not saved: the start is not a date and time.' },
  invalid_duration: { kind: 'error', text: 'Not saved: the duration must be 15 to 600 minutes.' },
  invalid_location: { kind: 'error', text: 'Not saved: the place is too long.' },
  cancelled: { kind: 'success', text: 'Game cancelled. Its officials are emailed.' },
  position_added: { kind: 'success', text: 'Position added. It is open for officials to take.' },
  position_removed: { kind: 'success', text: 'Position removed.' },
  invalid_position: { kind: 'error', text: 'Not added: check the label, the pay (dollars) and the level.' },
  last_position: {
    kind: 'error',
    text: 'This is the game’s last position: cancel the game instead.',
  },
  closed: { kind: 'error', text: 'This game is cancelled or completed: its positions can no longer change.' },
  too_many_positions: {
    kind: 'error',
    text: 'Not added: a game has at most 10 positions. Remove an open one first.',
  },
}

const REFUSALS: Refusals<Code> = {
  schedule_conflict: 'schedule_conflict',
  official_unavailable: 'official_unavailable',
  daily_limit_reached: 'daily_limit_reached',
  level_too_low: 'level_too_low',
  position_taken: 'taken',
  position_not_open: 'not_open',
  no_open_position: 'not_open',
  official_not_found: 'not_official',
  not_a_league_official: 'not_official',
  position_not_claimed: 'not_claimed',
  invalid_startsAt: 'invalid_start',
  invalid_durationMinutes: 'invalid_duration',
  invalid_location: 'invalid_location',
  invalid_label: 'invalid_position',
  invalid_payDollars: 'invalid_position',
  invalid_minLevel: 'invalid_position',
  last_position: 'last_position',
  game_closed: 'closed',
  too_many_positions: 'too_many_positions',
}

/** A form number: '' is absent, anything else a number the schema judges (NaN is refused there). */
const formNumber = (value: string): number | undefined => (value.trim() === '' ? undefined : Number(value))

/** An action on one game: back to its page with the outcome's notice. */
function gameAction(
  run: (person: Person, gameId: string, request: FastifyRequest) => Promise<{ leagueId: string }>,
  done: Code,
  back: (gameId: string, notice: Code, request: FastifyRequest) => string = (gameId, notice) =>
    paths.organizeGame.href({ gameId }, { notice }),
) {
  return signedIn(async (request, reply, person) => {
    const gameId = idParam(request, 'gameId', 'game_not_found')
    return act(reply, () => run(person, gameId, request), {
      // The Assign tab's buttons come back to the tab; everything else to the game.
      done: ({ leagueId }) =>
        field(request, 'return') === 'board'
          ? paths.leagueAssign.href({ leagueId }, { notice: done })
          : paths.organizeGame.href({ gameId }, { notice: done }),
      back: (notice) => back(gameId, notice, request),
      refusals: REFUSALS,
    })
  })
}

/** Edit: the start is a wall time of the league's clocks; the REST schema judges every field. */
async function editFromForm(deps: Deps, person: Person, gameId: string, request: FastifyRequest) {
  const { league } = await findGameDesk(deps, person, gameId)
  const start = field(request, 'start')
  const input = parseWith(UpdateGameBody, {
    startsAt: start === '' ? undefined : (instantOfWallTime(start, league.timeZone) ?? start),
    durationMinutes: formNumber(field(request, 'duration')),
    location: field(request, 'location'),
  })
  return updateGame(deps, person, gameId, input)
}

export function organizeGameRoutes(app: FastifyInstance, { deps, sendPage }: WebContext): void {
  app.get(
    paths.organizeGame.pattern,
    signedIn(async (request, reply, person) => {
      const gameId = idParam(request, 'gameId', 'game_not_found')
      const desk = await findGameDesk(deps, person, gameId)
      const notice = queryString(request, 'notice')
      const official = desk.officials.find((o) => o.userId === queryString(request, 'official'))
      const position = desk.game.positions.find((p) => p.id === queryString(request, 'position'))
      // Holding a position of this game is the one schedule_conflict that Assign anyway cannot override.
      const holdsOne = official && desk.game.positions.some((p) => p.official?.id === official.userId)
      const override =
        isOverridable(notice) && official && !holdsOne && position?.status === 'open'
          ? { userId: official.userId, name: official.name || official.email, positionId: position.id }
          : undefined
      const title = `${desk.game.sport || 'Game'}: ${desk.league.name}`
      const options = {
        title,
        nav: 'organize',
        timeZone: desk.league.timeZone,
        notice:
          holdsOne && notice === 'schedule_conflict' ? NOTICES.holds_position : noticeOf(request, NOTICES),
      } as const
      const levels = Array.from({ length: LEVEL.max - LEVEL.min + 1 }, (_, i) => LEVEL.min + i)
      return sendPage(request, reply, 'organize-game', options, { ...desk, override, levels })
    }),
  )

  app.post(
    paths.assignOfficial.pattern,
    gameAction(
      (person, gameId, request) =>
        assignOfficial(deps, person, gameId, {
          userId: idField(request, 'userId'),
          positionId: idField(request, 'positionId'),
          force: field(request, 'force') === 'yes',
        }),
      'assigned',
      // The refused choice travels back, so the page can offer it again as "Assign anyway".
      (gameId, notice, request) =>
        paths.organizeGame.href(
          { gameId },
          { notice, official: idField(request, 'userId'), position: idField(request, 'positionId') },
        ),
    ),
  )

  app.post(
    paths.unassignPosition.pattern,
    gameAction(
      (person, gameId, request) =>
        unassignPosition(deps, person, gameId, idParam(request, 'positionId', 'position_not_found')),
      'unassigned',
    ),
  )

  app.post(
    paths.removePosition.pattern,
    gameAction(
      (person, gameId, request) =>
        removePosition(deps, person, gameId, idParam(request, 'positionId', 'position_not_found')),
      'position_removed',
    ),
  )

  app.post(
    paths.addPosition.pattern,
    gameAction(
      (person, gameId, request) =>
        addPosition(
          deps,
          person,
          gameId,
          parseWith(PositionInput, {
            label: field(request, 'label').trim() || undefined,
            payDollars: formNumber(field(request, 'pay')),
            minLevel: formNumber(field(request, 'minLevel')),
          }),
        ),
      'position_added',
    ),
  )

  app.post(
    paths.editGame.pattern,
    gameAction((person, gameId, request) => editFromForm(deps, person, gameId, request), 'saved'),
  )

  app.get(
    paths.cancelGame.pattern,
    signedIn(async (request, reply, person) => {
      const gameId = idParam(request, 'gameId', 'game_not_found')
      const desk = await findGameDesk(deps, person, gameId)
      return sendPage(
        request,
        reply,
        'organize-cancel',
        { title: 'Cancel game', nav: 'organize', timeZone: desk.league.timeZone },
        desk,
      )
    }),
  )

  app.post(
    paths.cancelGame.pattern,
    gameAction((person, gameId) => cancelGame(deps, person, gameId), 'cancelled'),
  )
}
