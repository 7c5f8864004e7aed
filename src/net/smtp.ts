// Outgoing mail over SMTP (nodemailer): the one transport of the app's sign-in mail and of the
// notification sender. Tests and the bench hand their own `MailTransport` instead.
import nodemailer from 'nodemailer'

/** One mail as it goes out; a notification adds its HTML part, Message-ID and headers. */
export interface Mail {
  readonly to: string
  readonly subject: string
  readonly text: string
  readonly html?: string
  readonly messageId?: string
  readonly headers?: Readonly<Record<string, string>>
}

export interface MailTransport {
  send(mail: Mail): Promise<void>
  close(): void
}

/**
 * Mail from `from` through the server at `url`. With `pool`, up to `connections` connections are kept open
 * and every exchange must finish within `timeoutMs` (the sender's batches); without, nodemailer's defaults
 * and a connection per mail (a sign-in link now and then).
 */
export function smtpTransport(
  url: string,
  from: string,
  pool?: { connections: number; timeoutMs: number },
): MailTransport {
  const transport = nodemailer.createTransport(
    pool
      ? {
          url,
          pool: true,
          maxConnections: pool.connections,
          maxMessages: Infinity,
          connectionTimeout: pool.timeoutMs,
          greetingTimeout: pool.timeoutMs,
          socketTimeout: pool.timeoutMs,
        }
      : url,
  )
  return {
    async send(mail) {
      await transport.sendMail({ from, ...mail })
    },
    close: () => transport.close(),
  }
}
