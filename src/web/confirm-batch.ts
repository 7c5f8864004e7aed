// A bulk action asks first (issue 36 item 8): its first press answers a page that says how many of the
// selection it acts on and for how much, with the selection carried in a form whose press acts.
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { OrganizedLeague } from '../domain/pages/organize.js'
import type { BatchPreview } from '../domain/payments/season-close.js'
import type { WebContext } from './context.js'
import { field } from './forms.js'
import type { Views } from './views.js'

type Confirmation = Omit<
  Views['organize-confirm-batch'],
  'league' | 'preview' | 'heading' | 'confirmLabel'
> & {
  /** The action as a verb for the heading and the button: "Complete", "Charge", "Mark paid". */
  readonly verb: string
}

/** Whether this press is the second, the one that acts. */
export const confirmed = (request: FastifyRequest): boolean => field(request, 'confirm') === 'yes'

export function sendBatchConfirmation(
  sendPage: WebContext['sendPage'],
  request: FastifyRequest,
  reply: FastifyReply,
  league: OrganizedLeague,
  preview: BatchPreview,
  confirmation: Confirmation,
): FastifyReply {
  const { verb, ...rest } = confirmation
  const count = `${preview.count} ${preview.count === 1 ? rest.noun.one : rest.noun.many}`
  const heading = `${verb} ${count}?`
  const options = { title: heading, nav: 'organize', timeZone: league.timeZone } as const
  return sendPage(request, reply, 'organize-confirm-batch', options, {
    ...rest,
    league,
    preview,
    heading,
    confirmLabel: `${verb} ${count}`,
  })
}
