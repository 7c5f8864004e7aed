import { z } from 'zod'

export const IndexDoc = z
  .object({
    version: z.literal('v1'),
    auth: z.string(),
    endpoints: z.array(z.string()),
    mcp: z.string(),
    webhookEvents: z.array(z.string()),
    notes: z.record(z.string(), z.string()),
  })
  .meta({ id: 'Index' })
