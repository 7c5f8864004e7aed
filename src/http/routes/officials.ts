import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { Deps } from '../../domain/deps.js'

export const officialRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async () => {}
