// A notification as its recipient reads it: subject, text part and HTML part, from the snapshot its change
// wrote (schemas/notifications.ts) and the recipient's time zone. Templates are Eta's, in templates/; the
// HTML one escapes every `<%= %>` as the app's pages do, the text one writes plain text and so escapes
// nothing (it is never read as HTML).
import { fileURLToPath } from 'node:url'
import { Eta } from 'eta'
import {
  NOTIFICATION_WORD,
  type NotificationKindName,
  type NotificationPayload,
} from '../schemas/notifications.js'

// tsc copies no assets: `../../src/notifications/` names the folder from src/ under vitest and from dist/.
const TEMPLATES = fileURLToPath(new URL('../../src/notifications/templates/', import.meta.url))
const html = new Eta({ views: TEMPLATES, cache: true, autoEscape: true })
// Every line of the text part is a line of the mail: no newline is trimmed but where a tag says `-%>`.
const text = new Eta({ views: TEMPLATES, cache: true, autoEscape: false, autoTrim: false })

/** Where a mail's links point: whole URLs. */
export interface MailLinks {
  /** The page the mail is about: the official's Schedule or Earnings, the organizer's league. */
  readonly action: string
  readonly unsubscribe: string
  readonly preferences: string
}

export interface RenderedMail {
  readonly subject: string
  readonly text: string
  readonly html: string
}

interface Model {
  subject: string
  word: string
  accent: string
  heading: string
  lead: string
  changes: { label: string; from: string; to: string }[]
  facts: { label: string; value: string }[]
  action: { href: string; label: string }
  reason: string
  unsubscribe: string
  preferences: string
}

const formats = new Map<string, { long: Intl.DateTimeFormat; short: Intl.DateTimeFormat }>()

/** "Sat, May 2, 2026, 3:00 PM EDT" and, for subjects, "Sat, May 2, 3:00 PM EDT", in the zone. */
function dateTime(iso: string, timeZone: string, style: 'long' | 'short'): string {
  let format = formats.get(timeZone)
  if (!format) {
    const base = {
      timeZone,
      weekday: 'short',
      month: 'short',
      day: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      timeZoneName: 'short',
    } as const
    format = {
      long: new Intl.DateTimeFormat('en-US', { ...base, year: 'numeric' }),
      short: new Intl.DateTimeFormat('en-US', base),
    }
    formats.set(timeZone, format)
  }
  return format[style].format(new Date(iso))
}

/** Subjects are one line whatever a partner put in a game's sport. */
const oneLine = (value: string): string => value.replace(/[\r\n\t]+/g, ' ').trim()

const length = (minutes: number): string => `${minutes} minutes`

const money = (cents: number, currency: string): string =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(cents / 100)

export function renderNotification(
  kind: NotificationKindName,
  payload: NotificationPayload,
  timeZone: string,
  links: MailLinks,
): RenderedMail {
  const model = modelOf(kind, payload, timeZone, links)
  return {
    subject: model.subject,
    text: text.render('mail-text', model),
    html: html.render('mail-html', model),
  }
}

function modelOf(
  kind: NotificationKindName,
  p: NotificationPayload,
  timeZone: string,
  links: MailLinks,
): Model {
  const word = NOTIFICATION_WORD[kind]
  const sport = p.sport || 'Game'
  const when = dateTime(p.startsAt, timeZone, 'long')
  const what = kindText(kind, p, sport, when)
  return {
    subject: oneLine(`${word}: ${sport}, ${dateTime(p.startsAt, timeZone, 'short')}`),
    word,
    accent: kind === 'cancelled' || kind === 'unassigned' || kind === 'turnback' ? '#b91c1c' : '#1d4ed8',
    heading: what.heading,
    lead: what.lead,
    changes: changesOf(p, timeZone),
    facts: [
      { label: 'When', value: when },
      ...(p.durationMinutes !== undefined ? [{ label: 'Length', value: length(p.durationMinutes) }] : []),
      { label: 'Where', value: p.location || 'Location to be announced' },
      { label: 'League', value: p.leagueName },
      { label: 'Position', value: p.label },
      ...(p.official ? [{ label: 'Official', value: p.official.name || p.official.email }] : []),
      ...(p.amount ? [{ label: 'Amount', value: money(p.amount.cents, p.amount.currency) }] : []),
    ],
    action: { href: links.action, label: what.action },
    reason: `${word} emails are on in your RefDesk profile`,
    unsubscribe: links.unsubscribe,
    preferences: links.preferences,
  }
}

function kindText(
  kind: NotificationKindName,
  p: NotificationPayload,
  sport: string,
  when: string,
): { heading: string; lead: string; action: string } {
  const game = `${sport} in ${p.leagueName}`
  switch (kind) {
    case 'assigned':
      return {
        heading: `You are assigned: ${sport}`,
        lead: `You have been assigned as ${p.label} for ${game} on ${when}.`,
        action: 'Open your schedule',
      }
    case 'changed':
      return {
        heading: `Game changed: ${sport}`,
        lead: `A game you hold in ${p.leagueName} has changed. It is now on ${when}.`,
        action: 'Open your schedule',
      }
    case 'cancelled':
      return {
        heading: `Game cancelled: ${sport}`,
        lead: `The ${game} on ${when} is cancelled. You do not need to go.`,
        action: 'Open your schedule',
      }
    case 'unassigned':
      return {
        heading: `You are off a game: ${sport}`,
        lead: `You no longer hold ${p.label} for ${game} on ${when}.`,
        action: 'Open your schedule',
      }
    case 'reminder':
      return {
        heading: `Coming up: ${sport}`,
        lead: `A reminder: you are ${p.label} for ${game} on ${when}.`,
        action: 'Open your schedule',
      }
    case 'turnback':
      return {
        heading: `Turned back: ${sport}`,
        lead: `${p.official?.name || p.official?.email || 'An official'} gave back ${p.label} for ${game} on ${when}. The position is open again.`,
        action: 'Open the league',
      }
    case 'paid':
      return {
        heading: `You were paid: ${sport}`,
        lead: `Your payment for ${p.label} at ${game} on ${when} is paid.`,
        action: 'Open your earnings',
      }
  }
}

function changesOf(p: NotificationPayload, timeZone: string): Model['changes'] {
  const before = p.before
  if (!before) return []
  return (p.changes ?? []).flatMap((change) => {
    switch (change) {
      case 'time':
        return [
          {
            label: 'Time',
            from: dateTime(before.startsAt, timeZone, 'long'),
            to: dateTime(p.startsAt, timeZone, 'long'),
          },
        ]
      case 'length':
        return before.durationMinutes === undefined || p.durationMinutes === undefined
          ? []
          : [{ label: 'Length', from: length(before.durationMinutes), to: length(p.durationMinutes) }]
      case 'place':
        return [
          {
            label: 'Place',
            from: before.location || 'Location to be announced',
            to: p.location || 'Location to be announced',
          },
        ]
    }
  })
}
