import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { Deps } from '../../domain/deps.js'
import {
  createWebhook,
  deleteWebhook,
  listWebhookDeliveries,
  listWebhooks,
} from '../../domain/webhook-endpoints.js'
import { DataEnvelope } from '../../schemas/common.js'
import {
  CreatedWebhookEndpoint,
  CreateWebhookBody,
  DeliveriesQuery,
  Delivery,
  WebhookEndpoint,
  WebhookParams,
} from '../../schemas/webhooks.js'
import { errorResponses } from '../openapi.js'

const tags = ['webhooks']

export const webhookRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  app.get(
    '/webhooks',
    {
      schema: {
        operationId: 'listWebhooks',
        tags,
        summary: "Your source's webhook endpoints, newest first (never their secrets)",
        response: { 200: DataEnvelope(z.array(WebhookEndpoint)), ...errorResponses() },
      },
    },
    async (request) => ({ data: await listWebhooks(deps, request.caller) }),
  )

  app.post(
    '/webhooks',
    {
      schema: {
        operationId: 'createWebhook',
        tags,
        summary: 'Register an HTTPS endpoint; the signing secret is returned in this response only',
        description:
          'The endpoint receives the chosen events (all when `events` is empty or omitted, names added later included) for leagues of your source and leagues granted to this key. Registering the same URL twice creates two endpoints.',
        body: CreateWebhookBody,
        response: {
          201: DataEnvelope(CreatedWebhookEndpoint),
          ...errorResponses(
            'invalid_json',
            'https_url_required',
            'invalid_url',
            'unknown_event',
            'invalid_events',
            'source_reserved',
            'source_mismatch',
            'invalid_source',
          ),
        },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ data: await createWebhook(deps, request.caller, request.body) }),
  )

  app.delete(
    '/webhooks/:webhookId',
    {
      schema: {
        operationId: 'deleteWebhook',
        tags,
        summary: 'Delete an endpoint and its delivery history; pending deliveries are dropped',
        params: WebhookParams,
        response: {
          200: DataEnvelope(z.object({ deleted: z.literal(true) })),
          ...errorResponses('endpoint_not_found'),
        },
      },
    },
    async (request) => {
      await deleteWebhook(deps, request.caller, request.params.webhookId)
      return { data: { deleted: true as const } }
    },
  )

  app.get(
    '/webhooks/:webhookId/deliveries',
    {
      schema: {
        operationId: 'listWebhookDeliveries',
        tags,
        summary: "An endpoint's deliveries, newest first",
        params: WebhookParams,
        querystring: DeliveriesQuery,
        response: {
          200: DataEnvelope(z.array(Delivery)),
          ...errorResponses('invalid_limit', 'endpoint_not_found'),
        },
      },
    },
    async (request) => ({
      data: await listWebhookDeliveries(deps, request.caller, request.params.webhookId, request.query.limit),
    }),
  )
}
