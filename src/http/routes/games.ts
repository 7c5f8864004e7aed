import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { Deps } from '../../domain/deps.js'

export const gameRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async () => {}
