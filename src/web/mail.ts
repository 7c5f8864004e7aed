// Outgoing mail for the app: the sign-in link, over SMTP with nodemailer. Tests pass their own Mailer.
import nodemailer from 'nodemailer'

export interface MailMessage {
  readonly to: string
  readonly subject: string
  readonly text: string
}

export interface Mailer {
  send(message: MailMessage): Promise<void>
  close(): void
}

export function smtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl)
  return {
    async send(message) {
      await transport.sendMail({ from, ...message })
    },
    close: () => transport.close(),
  }
}

export function signInMessage(to: string, link: string): MailMessage {
  return {
    to,
    subject: 'Your RefDesk sign-in link',
    text: [
      'Hello,',
      '',
      'Open this link to sign in to RefDesk. It works once, within 15 minutes:',
      '',
      link,
      '',
      'If you did not ask for it, you can ignore this email: nobody can sign in without the link.',
      '',
    ].join('\n'),
  }
}
