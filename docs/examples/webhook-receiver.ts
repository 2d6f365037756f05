// A webhook receiver that verifies every delivery before trusting it.
//   WEBHOOK_SECRET=whsec_… npx tsx docs/examples/webhook-receiver.ts      (listens on 127.0.0.1:8080)
// Deliveries go to https URLs on port 443 only: put this behind your HTTPS endpoint.
import { createServer } from 'node:http';
import { verifyWebhook } from '../../clients/typescript/src/webhooks.js';

const secret = process.env.WEBHOOK_SECRET;
if (!secret) throw new Error('set WEBHOOK_SECRET to the whsec_… secret shown when the webhook was created');
const seen = new Set<string>(); // webhook-id: a retry, redelivery or replay carries the id of the first try

createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    if (!verifyWebhook(secret, request.headers, body)) {
      response.writeHead(400).end();
      return;
    }
    const id = String(request.headers['webhook-id']);
    if (!seen.has(id)) {
      seen.add(id);
      const event = JSON.parse(body) as { id: string; type: string; data: unknown };
      console.log(event.type, event.id, JSON.stringify(event.data));
    }
    response.writeHead(204).end(); // any 2xx is success: answer fast, work afterwards
  });
}).listen(8080, '127.0.0.1', () => console.log('listening on http://127.0.0.1:8080'));
