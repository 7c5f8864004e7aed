// The OpenAPI document as a partner fetches it, and an Ajv that resolves its component references.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import { buildHttp, openRuntime } from '../../src/app.js'

// ajv-formats' CommonJS default export, typed for ESM.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020

export const PUBLIC_URL = 'https://refdesk.partner.test'

export async function fetchDocument(): Promise<any> {
  const runtime = await openRuntime('file::memory:')
  const app = await buildHttp(runtime, undefined, { publicUrl: PUBLIC_URL })
  try {
    return (await app.inject({ url: '/api/v1/openapi.json' })).json()
  } finally {
    await app.close()
    await runtime.close()
  }
}

/** Compiles schemas of the document, `$ref`s to its components included. */
export function schemaValidator(doc: any): (schema: object) => ValidateFunction {
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  addFormats(ajv)
  const rewrite = (value: unknown): object =>
    JSON.parse(JSON.stringify(value).replaceAll('"#/components/schemas/', '"components#/$defs/'))
  ajv.addSchema({ $id: 'components', $defs: rewrite(doc.components.schemas) })
  return (schema) => ajv.compile(rewrite(schema))
}

/** Every operation of the document, the webhooks' included, with where it sits. */
export function operationsOf(doc: any): { where: string; op: any }[] {
  return [
    ...Object.entries<any>(doc.paths).flatMap(([path, item]) =>
      Object.entries<any>(item).map(([method, op]) => ({ where: `${method.toUpperCase()} ${path}`, op })),
    ),
    ...Object.entries<any>(doc.webhooks ?? {}).flatMap(([event, item]) =>
      Object.values<any>(item).map((op) => ({ where: `webhook ${event}`, op })),
    ),
  ]
}
