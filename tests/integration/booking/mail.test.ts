import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, stayZone, todayIn } from '../../../src/lib/booking/domain/dates.ts';
import { bookingService } from '../../../src/lib/booking/service/service.ts';
import { findAndMail } from '../../../src/lib/booking/mail/links.ts';
import { smtpMailer } from '../../../src/lib/booking/mail/mailer.ts';
import { closeRedis } from '../../../src/lib/upstream/redis.ts';
import { buildTenant } from '../../fixtures/tenant.ts';
import { demo, freshUpstream } from '../harness.ts';
import { startRedisServer, type RedisServer } from '../redis-server.ts';
import { request, startDialect, type Mock } from './fixture.ts';

// The guest's confirmation e-mail, through nodemailer, to a mail server this test starts on a free
// port (smtp-server, with a login), from the booking service against the contract mock.
const EDELWEISS = '2f7e65da-5ffa-5e37-b3a8-dd6d533190d1';
const TOKEN = demo.lodging['alpine-lodges']!.fullToken;
const LOGIN = { user: 'masthead', password: 'mail-secret' };

let mock: Mock;
let redis: RedisServer;
let smtp: SMTPServer;
let port = 0;
const inbox: ParsedMail[] = [];

beforeAll(async () => {
  [mock, redis] = await Promise.all([startDialect('default'), startRedisServer()]);
  smtp = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    onAuth(auth, _session, done) {
      const ok = auth.username === LOGIN.user && auth.password === LOGIN.password;
      done(ok ? null : new Error('Invalid login'), ok ? { user: auth.username } : undefined);
    },
    onData(stream, _session, done) {
      simpleParser(stream)
        .then((mail) => {
          inbox.push(mail);
          done();
        })
        .catch(done);
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  port = (smtp.server.address() as { port: number }).port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => smtp.close(resolve));
  await closeRedis();
  await redis?.stop();
  await mock?.close();
});

/** Alpine Post as tenants.json has it: German, Edelweiss Lodge, a contact; its own server. */
function alpine(options: { redisUrl?: string; password?: string; down?: () => boolean } = {}) {
  const tenant = buildTenant({
    id: 'alpine-post',
    name: 'Alpine Post',
    locale: 'de-CH',
    timeZone: 'Europe/Zurich',
    features: { booking: true },
    lodging: {
      baseUrl: mock.lodgingUrl,
      tokenEnv: 'TEST_LODGING_TOKEN',
      propertyIds: [EDELWEISS],
      minNights: 2,
      maxNights: 14,
      contact: { phone: '+41 33 555 01 23', email: 'zimmer@alpine-lodges.test' },
    },
  });
  const smtp = smtpMailer({
    host: '127.0.0.1',
    port,
    user: LOGIN.user,
    password: options.password ?? LOGIN.password,
    from: 'buchungen@alpine-post.test',
  });
  return bookingService(tenant, {
    credentials: () => ({ token: TOKEN }),
    upstream: freshUpstream().up,
    redisUrl: options.redisUrl,
    // `down`: the mail server refuses every mail while it says so.
    mailer: (mail) =>
      options.down?.() ? Promise.reject(new Error('421 Service not available')) : smtp(mail),
  });
}

async function bookAt(
  service: ReturnType<typeof alpine>,
  nights: number,
  email: string,
  firstName = 'Heidi',
) {
  const place = await service.property(EDELWEISS);
  const room = place.roomTypes.find((r) => r.name === 'Alpine Double')!;
  // The stay's own calendar (Zurich): the fixture's London "today" is a day behind from 23:00 UTC.
  const today = todayIn(stayZone(place, { timeZone: 'Europe/Zurich' }));
  const input = request({
    propertyId: EDELWEISS,
    roomTypeId: room.id,
    checkIn: addDays(today, nights),
    checkOut: addDays(today, nights + 2),
    email,
    firstName,
    lastName: 'Muster',
  });
  return { input, confirmation: await service.book(input) };
}

const mailFor = (to: string) => inbox.filter((m) => m.to && JSON.stringify(m.to).includes(to));

describe('the confirmation e-mail', () => {
  it('goes out once, in German for Alpine Post, with the stay, the manage link, the contact and a plain-text part', async () => {
    const service = alpine();
    const email = `heidi.${Date.now()}@example.com`;
    const { input, confirmation } = await bookAt(service, 400, email);
    const manageUrl = `http://alpine-post.localhost:4321/stay/manage/${'x'.repeat(8)}`;
    const sent = {
      confirmation,
      to: input.email,
      guestName: 'Heidi Muster',
      manageUrl,
      site: 'Alpine Post',
    };
    expect(await service.mailConfirmation(sent)).toBe(true);

    const [mail, ...more] = mailFor(email);
    expect(more).toEqual([]);
    expect(mail!.subject).toBe(`Ihre Buchung ${confirmation.reference}: Edelweiss Lodge`);
    expect(mail!.from?.text).toBe('"Alpine Post" <buchungen@alpine-post.test>');
    // A reply reaches the hotel the mail names, not the server's sending address.
    expect(mail!.replyTo?.text).toBe('zimmer@alpine-lodges.test');
    const text = mail!.text ?? '';
    expect(text).toContain('Guten Tag Heidi Muster');
    expect(text).toContain('Anfrage erhalten');
    expect(text).toContain('Alpine Double');
    expect(text).toContain(`Buchung ansehen oder stornieren: ${manageUrl}`);
    expect(text).toContain('+41 33 555 01 23 · zimmer@alpine-lodges.test');
    expect(mail!.html).toContain(`href="${manageUrl}"`);

    // The guest's retry (same key) gets the same booking, and no second e-mail.
    const again = await service.book(input);
    expect(again.reference).toBe(confirmation.reference);
    expect(await service.mailConfirmation({ ...sent, confirmation: again })).toBe(false);
    expect(mailFor(email)).toHaveLength(1);
  });

  it('for a stay starting today, offers to see the booking, not to cancel it (no longer possible online)', async () => {
    const service = alpine();
    const email = `today.${Date.now()}@example.com`;
    const { input, confirmation } = await bookAt(service, 0, email);
    const manageUrl = 'http://alpine-post.localhost:4321/stay/manage/today';
    const sent = {
      confirmation,
      to: input.email,
      guestName: 'Heidi',
      manageUrl,
      site: 'Alpine Post',
    };
    expect(await service.mailConfirmation(sent)).toBe(true);
    const [mail] = mailFor(email);
    expect(mail!.text).toContain(`Buchung ansehen: ${manageUrl}`);
    expect(mail!.text).not.toContain('ansehen oder stornieren');
    expect(mail!.html).toContain('>Buchung ansehen</a>');
  });

  it('is sent once across two servers sharing Redis', async () => {
    const [a, b] = [alpine({ redisUrl: redis.url }), alpine({ redisUrl: redis.url })];
    const email = `peter.${Date.now()}@example.com`;
    const { input, confirmation } = await bookAt(a, 410, email);
    const sent = {
      confirmation,
      to: input.email,
      guestName: 'Peter',
      manageUrl: 'http://x/',
      site: 'Alpine Post',
    };
    const results = await Promise.all([a.mailConfirmation(sent), b.mailConfirmation(sent)]);
    expect(results.sort()).toEqual([false, true]);
    expect(mailFor(email)).toHaveLength(1);
  });
});

describe('find my booking', () => {
  it('finds a booking only by its reference with the address it was made with, and mails its link there', async () => {
    const service = alpine();
    const email = `anna.${Date.now()}@example.com`;
    const { confirmation } = await bookAt(service, 430, email);
    // A second stay with the same address goes under the online-requests record (the e-mail is on
    // file now): it is found too, by the address in its notes.
    const second = (await bookAt(service, 440, email)).confirmation;

    for (const wanted of [confirmation, second]) {
      const found = await service.findStay(email.toUpperCase(), wanted.reference.toLowerCase());
      expect(found?.reference).toBe(wanted.reference);
    }
    expect(await service.findStay(`other.${email}`, confirmation.reference)).toBeNull();
    expect(await service.findStay(email, 'BK-NOSUCH')).toBeNull();

    const found = (await service.findStay(email, second.reference))!;
    const link = 'http://alpine-post.localhost:4321/stay/manage/token';
    await service.mailLink({
      booking: found,
      guestName: '',
      manageUrl: link,
      site: 'Alpine Post',
    });
    const mail = mailFor(email).at(-1)!;
    expect(mail.subject).toBe(`Der Link zu Ihrer Buchung ${second.reference}`);
    expect(mail.text).toContain(`Buchung ansehen oder stornieren: ${link}`);
  });
});

/** A request on Alpine Post's own host, as the site hands it to the link mails. */
const onAlpineHost = (service: ReturnType<typeof alpine>) => ({
  locals: {
    tenantMatchOrNull: {
      tenant: service.tenant,
      via: 'host',
      basePath: '',
      pathname: '/',
      origin: 'https://alpinepost.example.com',
    },
  } as unknown as App.Locals,
});

describe('the link mail of "find my booking"', () => {
  it('goes to the address the booking was made with, not the spelling typed to find it', async () => {
    const service = alpine();
    const email = `finder.${Date.now()}@example.com`;
    const first = (await bookAt(service, 590, email)).confirmation;
    // Under the online-requests record (the address is on file now), found by its notes.
    const second = (await bookAt(service, 600, email)).confirmation;
    const context = onAlpineHost(service);
    const typed = `${email.replace('finder', 'Finder').replace('example.com', 'Example.COM')}.`;
    for (const { reference } of [first, second]) {
      await findAndMail(context, service, typed, reference);
      const mail = inbox.find((m) => m.subject?.endsWith(reference));
      expect(mail?.to && 'value' in mail.to && mail.to.value.map((a) => a.address)).toEqual([
        email,
      ]);
    }
  });
});

describe('the cancellation e-mail', () => {
  it('goes once to the address each booking was made with (its own record, or the one its notes name)', async () => {
    const service = alpine();
    const email = `storno.${Date.now()}@example.com`;
    const first = (await bookAt(service, 450, email)).confirmation;
    // The address is on file now: the second stay goes under the online-requests record.
    const second = (await bookAt(service, 460, email)).confirmation;
    const place = await service.property(EDELWEISS);
    const links = {
      bookUrl: 'https://alpinepost.example/stay',
      site: 'https://alpinepost.example/',
    };
    for (const [index, made] of [first, second].entries()) {
      const booking = (await service.findStay(email, made.reference))!;
      expect(await service.mailCancellation({ booking, place, ...links })).toBe(true);
      // A repeated cancel (a reload, another server) sends nothing more.
      expect(await service.mailCancellation({ booking, place, ...links })).toBe(false);
      const mails = mailFor(email).filter((m) => m.subject?.includes('storniert'));
      expect(mails).toHaveLength(index + 1);
      const mail = mails.at(-1)!;
      expect(mail.subject).toBe(`Ihre Buchung ${made.reference} ist storniert`);
      expect(mail.text).toContain(`Ihre Buchung ${made.reference} (Edelweiss Lodge, `);
      expect(mail.text).toContain('Doch anreisen? Buchen Sie neu: https://alpinepost.example/stay');
      expect(mail.text).toContain('+41 33 555 01 23 · zimmer@alpine-lodges.test');
      expect(mail.html).toContain('<a href="https://alpinepost.example/stay">');
    }
    expect(
      mailFor(email).find((m) => m.subject?.includes(first.reference + ' ist'))?.text,
    ).toContain('Guten Tag Heidi Muster');
  });
});

describe('a name the booker typed', () => {
  it('is never a link in the confirmation or the cancellation e-mail, and cannot add a header', async () => {
    const service = alpine();
    const email = `phish.${Date.now()}@example.com`;
    const name = 'https://evil.example/verify\r\nBcc: victim@example.com';
    const { input, confirmation } = await bookAt(service, 470, email, name);
    const manageUrl = 'https://alpinepost.example/stay/manage/token';
    const site = 'https://alpinepost.example/';
    expect(
      await service.mailConfirmation({
        confirmation,
        to: input.email,
        guestName: name,
        manageUrl,
        site,
      }),
    ).toBe(true);
    const booking = (await service.findStay(email, confirmation.reference))!;
    const place = await service.property(EDELWEISS);
    const bookUrl = 'https://alpinepost.example/stay';
    expect(await service.mailCancellation({ booking, place, bookUrl, site })).toBe(true);
    const mails = mailFor(email);
    expect(mails).toHaveLength(2);
    for (const mail of mails) {
      expect(mail.bcc).toBeUndefined();
      expect(mail.text).toContain('Guten Tag evil[.]example/verify Bcc: victim@example[.]com');
      for (const part of [mail.text ?? '', String(mail.html)])
        expect(part).not.toMatch(/evil\.example/);
      const hrefs = [...String(mail.html).matchAll(/href="([^"]*)"/g)].map((m) => m[1]);
      for (const href of hrefs) expect([manageUrl, site, bookUrl]).toContain(href);
    }
  });
});

describe('a guest record the lodging API holds', () => {
  it('with an address a mail library reads as a list or a header is mailed nothing', async () => {
    const service = alpine();
    const email = `record.${Date.now()}@example.com`;
    const victim = `victim.${Date.now()}@example.com`;
    const { confirmation } = await bookAt(service, 480, email);
    const booking = (await service.findStay(email, confirmation.reference))!;
    // The record changed on the API's side (another client, an import): not an address we checked.
    const guest = mock.state.lodging.guests.find((g) => g.id === booking.guest_id)!;
    guest.email = `${email}\r\nBcc: ${victim}`;
    const place = await service.property(EDELWEISS);
    const links = {
      bookUrl: 'https://alpinepost.example/stay',
      site: 'https://alpinepost.example/',
    };
    expect(await service.mailCancellation({ booking, place, ...links })).toBe(false);
    expect(mailFor(victim)).toEqual([]);
    expect(mailFor(email)).toEqual([]);
  });
});

describe('mails to one address', () => {
  it('at most 3 an hour reach one address, however many bookings name it (the bookings still go through)', async () => {
    const service = alpine();
    const victim = `victim.${Date.now()}@example.com`;
    const results: boolean[] = [];
    for (let i = 0; i < 5; i += 1) {
      const { input, confirmation } = await bookAt(service, 480 + 3 * i, victim);
      expect(confirmation.reference).toMatch(/\S/);
      const sent = {
        confirmation,
        to: input.email,
        guestName: 'V',
        manageUrl: 'https://a.example/m',
        site: 'https://a.example/',
      };
      results.push(await service.mailConfirmation(sent));
    }
    expect(results).toEqual([true, true, true, false, false]);
    expect(mailFor(victim)).toHaveLength(3);
    // Its cancellation mails count too.
    const booking = (await service.findStay(
      victim,
      (await bookAt(service, 500, victim)).confirmation.reference,
    ))!;
    const place = await service.property(EDELWEISS);
    const links = { bookUrl: 'https://a.example/stay', site: 'https://a.example/' };
    expect(await service.mailCancellation({ booking, place, ...links })).toBe(false);
    expect(mailFor(victim)).toHaveLength(3);
  });
});

describe('a mail the mail server refused', () => {
  it('does not count against the address: once the server is back, each booking is mailed', async () => {
    let down = true;
    const service = alpine({ down: () => down });
    const email = `recovered.${Date.now()}@example.com`;
    const sent = [];
    for (let i = 0; i < 3; i += 1) {
      const { input, confirmation } = await bookAt(service, 540 + 3 * i, email);
      const links = { manageUrl: 'https://a.example/m', site: 'https://a.example/' };
      sent.push({ confirmation, to: input.email, guestName: 'R', ...links });
    }
    for (const mail of sent) expect(await service.mailConfirmation(mail)).toBe(false);
    down = false;
    for (const mail of sent) expect(await service.mailConfirmation(mail)).toBe(true);
    expect(mailFor(email)).toHaveLength(3);
  });

  it('nor against the booking’s link mails: a find after the server is back mails the link', async () => {
    let down = true;
    const service = alpine({ down: () => down });
    const email = `lost.${Date.now()}@example.com`;
    const { reference } = (await bookAt(service, 560, email)).confirmation;
    const context = onAlpineHost(service);
    for (let i = 0; i < 4; i += 1) await findAndMail(context, service, email, reference);
    expect(mailFor(email)).toEqual([]);
    down = false;
    await findAndMail(context, service, email, reference);
    expect(mailFor(email)).toHaveLength(1);
  });
});

describe('a booking under the online-requests record', () => {
  it('mails its cancellation to the address it was made with, not one its name or note names', async () => {
    const service = alpine();
    const email = `onfile.${Date.now()}@example.com`;
    const decoy = `decoy.${Date.now()}@example.com`;
    await bookAt(service, 520, email);
    // The address is on file now: this stay goes under the online-requests record, its notes
    // naming who asked, and an address in the name typed before the real one.
    const second = (await bookAt(service, 530, email, `Eve <${decoy}>`)).confirmation;
    const booking = (await service.findStay(email, second.reference))!;
    // "Find my booking" with the address in the name finds nothing either.
    expect(await service.findStay(decoy, second.reference)).toBeNull();
    const place = await service.property(EDELWEISS);
    const links = { bookUrl: 'https://a.example/stay', site: 'https://a.example/' };
    expect(await service.mailCancellation({ booking, place, ...links })).toBe(true);
    expect(mailFor(decoy)).toEqual([]);
    expect(mailFor(email).filter((m) => m.subject?.includes('storniert'))).toHaveLength(1);
  });
});
