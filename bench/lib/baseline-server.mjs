// The baseline route: a bare Fastify app serving a game row and its positions by primary key through the
// raw driver (prepared statements, JSON.stringify), so the ratio shows what the service stack costs.
import Fastify from 'fastify'

export async function startBaselineServer(raw) {
  const app = Fastify({ logger: false })
  app.get('/games/:id', async (request, reply) => {
    const [game] = await raw.all('select * from games where id = $1', [request.params.id])
    if (!game) return reply.code(404).send({ error: 'game_not_found' })
    const positions = await raw.all('select * from positions where game_id = $1 order by seq', [game.id])
    return { data: { ...game, positions } }
  })
  await app.listen({ port: 0, host: '127.0.0.1' })
  return { origin: `http://127.0.0.1:${app.server.address().port}`, close: () => app.close() }
}
