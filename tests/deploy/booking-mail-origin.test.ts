/**
 * Mailed manage links through the shipped edge (issue 33): a post that names another host in `Host`
 * (nginx passes it on as `X-Forwarded-Host`, which a server behind a trusted proxy believes) still
 * mails a link to the tenant's own host from tenants.json, never to that host.
 */
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { day } from '../fixtures/dates.ts';
import { send } from './http.ts';
import { freePort, type Service } from './processes.ts';
import { startDocumentedMock, startEdge, startSite, type Mock } from './stack.ts';

const EVIL = 'evil.example';
const TENANT = 'harbour-times';

let mock: Mock;
let site: Service;
let edge: Service & { dir: string };
let smtp: SMTPServer;
const inbox: ParsedMail[] = [];

beforeAll(async () => {
  const smtpPort = await freePort();
  smtp = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    onData(stream, _session, done) {
      simpleParser(stream)
        .then((mail) => {
          inbox.push(mail);
          done();
        })
        .catch(done);
    },
  });
  await new Promise<void>((resolve) => smtp.listen(smtpPort, '127.0.0.1', resolve));
  mock = await startDocumentedMock();
  site = await startSite({
    mock,
    env: { SMTP_HOST: '127.0.0.1', SMTP_PORT: String(smtpPort), SMTP_FROM: 'b@masthead.test' },
  });
  edge = await startEdge([site.port]);
});

afterAll(async () => {
  await edge?.stop();
  await site?.stop();
  await mock?.close();
  await new Promise<void>((resolve) => smtp.close(resolve));
});

/** A request through the edge as the attacker sends it: their host, and a matching Origin. */
const forged = (path: string, init: { method?: string; body?: string; type?: string } = {}) =>
  send(`http://127.0.0.1:${edge.port}/${TENANT}${path}`, {
    host: EVIL,
    method: init.method ?? 'GET',
    ...(init.body === undefined ? {} : { body: init.body }),
    headers: {
      origin: `http://${EVIL}`,
      ...(init.type ? { 'content-type': init.type } : {}),
    },
  });

async function mailTo(email: string, count: number): Promise<ParsedMail> {
  for (
    let i = 0;
    i < 100 && inbox.filter((m) => JSON.stringify(m.to).includes(email)).length < count;
    i += 1
  )
    await new Promise((resolve) => setTimeout(resolve, 100));
  const mails = inbox.filter((m) => JSON.stringify(m.to).includes(email));
  expect(mails).toHaveLength(count);
  return mails.at(-1)!;
}

const manageLink = (mail: ParsedMail) =>
  /https?:\/\/\S+\/stay\/manage\/\S+/.exec(mail.text ?? '')?.[0] ?? '';

describe('mailed links behind the edge with a forged Host', () => {
  it('the confirmation and "find my booking" link name the tenant’s host, not the forged one', async () => {
    const properties = JSON.parse((await forged('/api/booking/properties')).text) as {
      data: { id: string; roomTypes: { id: string; maxAdults: number }[] }[];
    };
    const place = properties.data[0]!;
    const email = `edge.${Date.now()}@example.com`;
    const booking = await forged('/api/booking/bookings', {
      method: 'POST',
      type: 'application/json',
      body: JSON.stringify({
        idempotencyKey: `edgemail${Date.now()}000000`,
        propertyId: place.id,
        roomTypeId: place.roomTypes[0]!.id,
        checkIn: day(500),
        checkOut: day(502),
        adults: 1,
        children: 0,
        firstName: 'Eve',
        lastName: 'Dge',
        email,
        phone: '',
        nationality: '',
        notes: '',
      }),
    });
    expect(booking.status).toBe(200);
    const { reference } = (JSON.parse(booking.text) as { data: { reference: string } }).data;
    const confirmation = await mailTo(email, 1);
    expect(manageLink(confirmation)).toMatch(/^http:\/\/harbour-times\.localhost\/stay\/manage\//);
    expect(`${confirmation.text}${String(confirmation.html)}`).not.toContain(EVIL);

    const body = new URLSearchParams({ email, reference }).toString();
    const find = await forged('/stay/manage?_action=findStay', {
      method: 'POST',
      type: 'application/x-www-form-urlencoded',
      body,
    });
    expect(find.status).toBe(303);
    const found = await mailTo(email, 2);
    expect(manageLink(found)).toMatch(/^http:\/\/harbour-times\.localhost\/stay\/manage\//);
    expect(`${found.text}${String(found.html)}`).not.toContain(EVIL);
  });
});
