// The app's own mail: the sign-in link. It goes out through the context's transport (net/smtp.ts).
import type { Mail } from '../net/smtp.js'

export function signInMessage(to: string, link: string): Mail {
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
