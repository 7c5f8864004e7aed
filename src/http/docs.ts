// GET /docs: the interactive API reference (Scalar) of our OpenAPI document, outside /api/v1 and with no
// key. Everything it loads comes from this server: the script is the one bundled in the package, the
// fonts are the system's, telemetry and "Ask AI" are off, and the Content-Security-Policy lets the page reach nothing
// but its own origin, so "Send" in the page talks to this server alone.
import apiReference from '@scalar/fastify-api-reference'
import type { FastifyInstance } from 'fastify'

const DOCS_PREFIX = '/docs'

// Scalar renders with inline styles and boots from an inline script in its page.
const CSP = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ')

export async function registerDocs(app: FastifyInstance): Promise<void> {
  await app.register(apiReference, {
    routePrefix: DOCS_PREFIX,
    logLevel: 'warn',
    configuration: {
      content: () => app.swagger(),
      pageTitle: 'RefDesk Partner API reference',
      withDefaultFonts: false,
      telemetry: false,
      hideClientButton: true,
      showDeveloperTools: 'never',
      persistAuth: false,
      defaultOpenAllTags: true,
      // "Ask AI" would send the document to Scalar's service.
      agent: { disabled: true },
    },
    hooks: {
      onRequest: (_request, reply, done) => {
        reply.header('content-security-policy', CSP)
        reply.header('x-content-type-options', 'nosniff')
        reply.header('referrer-policy', 'no-referrer')
        done()
      },
    },
  })
}
