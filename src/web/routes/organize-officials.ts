// A league's officials for its organizer: Add official, Level, Approve, and Deny behind a confirmation that
// offers to release their upcoming games. Another league's id answers Not found.
import type { FastifyInstance } from 'fastify'
import {
  addOfficial,
  listLeagueOfficials,
  previewDenial,
  setOfficialLevel,
} from '../../domain/pages/organize-officials.js'
import { approveOfficial, denyOfficial } from '../../domain/leagues/officials.js'
import { parseWith } from '../../domain/core/parse.js'
import { UpsertOfficialBody } from '../../schemas/officials.js'
import { LEVEL } from '../../schemas/schedule.js'
import type { WebContext } from '../context.js'
import { field } from '../forms.js'
import { idParam, signedIn } from '../guards.js'
import { act, noticeOf, type Notices, type Refusals } from '../notices.js'
import { paths } from '../paths.js'

type Code =
  | 'approved'
  | 'denied'
  | 'not_a_member'
  | 'added'
  | 'invalid_email'
  | 'invalid_name'
  | 'invalid_level'
  | 'is_organizer'
  | 'level_set'

const NOTICES: Notices<Code> = {
  approved: { kind: 'success', text: 'Official approved: they can claim this league’s games.' },
  denied: { kind: 'success', text: 'Official denied: they can no longer claim this league’s games.' },
  not_a_member: { kind: 'error', text: 'That person is no longer an official of this league.' },
  added: { kind: 'success', text: 'Official added and approved: they can sign in with that email.' },
  invalid_email: { kind: 'error', text: 'Not added: that is not an email address.' },
  invalid_name: { kind: 'error', text: 'Not added: the name is too long.' },
  invalid_level: { kind: 'error', text: 'Not saved: a level is 1 to 5, or none.' },
  is_organizer: { kind: 'error', text: 'Not added: that address is the league’s organizer.' },
  level_set: { kind: 'success', text: 'Level saved.' },
}

const REFUSALS: Refusals<Code> = {
  not_a_member: 'not_a_member',
  not_an_official: 'not_a_member',
  invalid_email: 'invalid_email',
  invalid_name: 'invalid_name',
  invalid_level: 'invalid_level',
  user_is_organizer: 'is_organizer',
}

const LEVELS = Array.from({ length: LEVEL.max - LEVEL.min + 1 }, (_, i) => LEVEL.min + i)

/** The level field: '' is none; anything else the schema judges. */
const NewOfficialForm = UpsertOfficialBody.pick({ email: true, name: true, level: true })
const levelOf = (value: string) =>
  parseWith(NewOfficialForm.pick({ level: true }), { level: value === '' ? null : Number(value) }).level ??
  null

export function organizeOfficialsRoutes(app: FastifyInstance, { deps, sendPage }: WebContext): void {
  app.get(
    paths.leagueOfficials.pattern,
    signedIn(async (request, reply, person) => {
      const leagueId = idParam(request, 'leagueId', 'league_not_found')
      const { league, officials } = await listLeagueOfficials(deps, person, leagueId)
      const title = `${league.name}: officials`
      const options = {
        title,
        nav: 'organize',
        timeZone: league.timeZone,
        notice: noticeOf(request, NOTICES),
      } as const
      return sendPage(request, reply, 'organize-officials', options, {
        league,
        tab: 'officials',
        officials,
        levels: LEVELS,
      })
    }),
  )

  app.post(
    paths.leagueOfficials.pattern,
    signedIn(async (request, reply, person) => {
      const leagueId = idParam(request, 'leagueId', 'league_not_found')
      const back = (notice: Code) => paths.leagueOfficials.href({ leagueId }, { notice })
      return act(
        reply,
        async () => {
          const form = parseWith(NewOfficialForm, {
            email: field(request, 'email'),
            name: field(request, 'name'),
          })
          const level = levelOf(field(request, 'level'))
          return addOfficial(deps, person, leagueId, {
            email: form.email ?? '',
            name: form.name ?? '',
            level,
          })
        },
        { done: () => back('added'), back, refusals: REFUSALS },
      )
    }),
  )

  app.post(
    paths.officialLevel.pattern,
    signedIn(async (request, reply, person) => {
      const leagueId = idParam(request, 'leagueId', 'league_not_found')
      const userId = idParam(request, 'userId', 'not_a_member')
      const back = (notice: Code) => paths.leagueOfficials.href({ leagueId }, { notice })
      return act(
        reply,
        async () => setOfficialLevel(deps, person, leagueId, userId, levelOf(field(request, 'level'))),
        { done: () => back('level_set'), back, refusals: REFUSALS },
      )
    }),
  )

  app.get(
    paths.denyOfficial.pattern,
    signedIn(async (request, reply, person) => {
      const leagueId = idParam(request, 'leagueId', 'league_not_found')
      const userId = idParam(request, 'userId', 'not_a_member')
      const preview = await previewDenial(deps, person, leagueId, userId)
      return sendPage(
        request,
        reply,
        'organize-deny',
        { title: 'Deny official', nav: 'organize', timeZone: preview.league.timeZone },
        preview,
      )
    }),
  )

  for (const [path, done] of [
    [paths.approveOfficial, 'approved'],
    [paths.denyOfficial, 'denied'],
  ] as const) {
    app.post(
      path.pattern,
      signedIn(async (request, reply, person) => {
        const leagueId = idParam(request, 'leagueId', 'league_not_found')
        const userId = idParam(request, 'userId', 'not_a_member')
        const back = (notice: Code) => paths.leagueOfficials.href({ leagueId }, { notice })
        const decide =
          done === 'approved'
            ? () => approveOfficial(deps, person, leagueId, userId)
            : () =>
                denyOfficial(deps, person, leagueId, userId, {
                  releaseUpcoming: field(request, 'release') === 'yes',
                })
        return act(reply, decide, { done: () => back(done), back, refusals: REFUSALS })
      }),
    )
  }
}
