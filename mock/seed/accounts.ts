import { stableSecret, stableUuid } from '../lib/prng.ts';
import type { Property, RoomType } from '../lodging/model.ts';
import { THEMES } from './themes.ts';

/** One password for every demo login, in every tenant and account. */
export const DEMO_PASSWORD = 'masthead-demo';

export type DemoRole = 'admin' | 'editor' | 'subscriber' | 'reader';

/** Publishing demo users: the same e-mails exist in every tenant (separate accounts). */
export const DEMO_USERS: {
  key: DemoRole;
  email: string;
  name: string;
  roles: string[];
  hasActiveSubscription: boolean;
}[] = [
  {
    key: 'admin',
    email: 'admin@masthead.test',
    name: 'Ada Admin',
    roles: ['admin'],
    hasActiveSubscription: false,
  },
  {
    key: 'editor',
    email: 'editor@masthead.test',
    name: 'Eddie Editor',
    roles: ['editor'],
    hasActiveSubscription: false,
  },
  {
    key: 'subscriber',
    email: 'subscriber@masthead.test',
    name: 'Sam Subscriber',
    roles: ['subscriber'],
    hasActiveSubscription: true,
  },
  {
    key: 'reader',
    email: 'reader@masthead.test',
    name: 'Riley Reader',
    roles: ['subscriber'],
    hasActiveSubscription: false,
  },
];

/** A room type to seed; `seedLodging` adds the id and the weekend price. */
export type RoomTypeDef = Omit<RoomType, 'id' | 'weekendPrice'>;

/** A property to seed; `seedLodging` adds the ids, the account's currency and the house times. */
export type PropertyDef = Omit<
  Property,
  'id' | 'accountId' | 'currency' | 'checkInTime' | 'checkOutTime' | 'roomTypes'
> & { roomTypes: RoomTypeDef[] };

export type LodgingAccountDef = {
  slug: string;
  name: string;
  userName: string;
  email: string;
  currency: string;
  publishingTenant: string;
  properties: PropertyDef[];
};

/** Lodging accounts; ids and tokens derive from names only, so they never change with the seed. */
export const LODGING_ACCOUNTS: LodgingAccountDef[] = [
  {
    slug: 'harbour-hotels',
    name: 'Harbour Hotels',
    userName: 'Hanna Harbour',
    email: 'manager@harbour-hotels.test',
    currency: 'EUR',
    publishingTenant: 'harbour-times',
    properties: [
      {
        name: 'Harbour View Hotel',
        description:
          'A family-run hotel on the Old Quay with views over the marina and the lighthouse.',
        address: 'Ferry Street 12',
        postcode: '1781 AB',
        city: 'Port Haven',
        country: 'NL',
        timezone: 'Europe/Amsterdam',
        roomTypes: [
          {
            name: 'Standard Double',
            description: 'Quiet double room facing the old town.',
            maxAdults: 2,
            maxChildren: 1,
            maxOccupancy: 3,
            basePrice: '119.00',
            totalRooms: 12,
          },
          {
            name: 'Sea View Suite',
            description: 'Corner suite with balcony over the harbour.',
            maxAdults: 2,
            maxChildren: 2,
            maxOccupancy: 4,
            basePrice: '219.00',
            totalRooms: 4,
          },
          {
            name: 'Single Cabin',
            description: 'Compact single room in ship-cabin style.',
            maxAdults: 1,
            maxChildren: 0,
            maxOccupancy: 1,
            basePrice: '79.00',
            totalRooms: 6,
          },
        ],
      },
      {
        name: 'Dune Cottages',
        description: 'Holiday homes behind the dunes, five minutes on foot from the beach.',
        address: 'Duinpad 3',
        postcode: '1783 DP',
        city: 'Port Haven',
        country: 'NL',
        timezone: 'Europe/Amsterdam',
        roomTypes: [
          {
            name: 'Two-Bedroom Cottage',
            description: 'Cottage with garden, sleeps five.',
            maxAdults: 4,
            maxChildren: 2,
            maxOccupancy: 5,
            basePrice: '165.00',
            totalRooms: 5,
          },
          {
            name: 'Family Dune House',
            description: 'Large house with sauna and sea glimpses.',
            maxAdults: 6,
            maxChildren: 3,
            maxOccupancy: 8,
            basePrice: '249.00',
            totalRooms: 2,
          },
        ],
      },
    ],
  },
  {
    slug: 'alpine-lodges',
    name: 'Alpine Lodges',
    userName: 'Andrea Alpin',
    email: 'manager@alpine-lodges.test',
    currency: 'CHF',
    publishingTenant: 'alpine-post',
    properties: [
      {
        name: 'Edelweiss Lodge',
        description: 'Wooden lodge above Bergheim, ski-in ski-out in winter, trailhead in summer.',
        address: 'Dorfstrasse 41',
        postcode: '3818',
        city: 'Bergheim',
        country: 'CH',
        timezone: 'Europe/Zurich',
        roomTypes: [
          {
            name: 'Alpine Double',
            description: 'Pine-panelled double with mountain view.',
            maxAdults: 2,
            maxChildren: 1,
            maxOccupancy: 3,
            basePrice: '189.00',
            totalRooms: 10,
          },
          {
            name: 'Family Chalet Room',
            description: 'Two rooms under the roof for families.',
            maxAdults: 4,
            maxChildren: 3,
            maxOccupancy: 5,
            basePrice: '289.00',
            totalRooms: 4,
          },
          {
            name: 'Mountain Suite',
            description: 'Suite with fireplace and glacier view.',
            maxAdults: 2,
            maxChildren: 2,
            maxOccupancy: 4,
            basePrice: '349.00',
            totalRooms: 2,
          },
        ],
      },
    ],
  },
];

export const accountId = (slug: string) => stableUuid(`${slug}/account`);
export const accountUserId = (slug: string) => stableUuid(`${slug}/user`);
export const propertyId = (slug: string, i: number) => stableUuid(`${slug}/property/${i}`);
export const roomTypeId = (slug: string, p: number, r: number) =>
  stableUuid(`${slug}/property/${p}/room-type/${r}`);

/** Fixed API tokens (Sanctum format `<id>|<40 chars>`): read-only and full access. */
export function apiTokens(slug: string): { read: string; full: string } {
  const i = LODGING_ACCOUNTS.findIndex((a) => a.slug === slug);
  return {
    read: `${i * 2 + 1}|${stableSecret(`${slug}/token/read`)}`,
    full: `${i * 2 + 2}|${stableSecret(`${slug}/token/full`)}`,
  };
}

/** The content of mock/demo-accounts.json. */
export function demoAccounts() {
  const user = (key: DemoRole) => {
    const u = DEMO_USERS.find((d) => d.key === key);
    return { email: u?.email ?? '', password: DEMO_PASSWORD, name: u?.name ?? '' };
  };
  const publishing = Object.fromEntries(
    THEMES.map((t) => [
      t.slug,
      {
        name: t.name,
        admin: user('admin'),
        editor: user('editor'),
        subscriber: user('subscriber'),
        reader: user('reader'),
      },
    ]),
  );
  const lodging = Object.fromEntries(
    LODGING_ACCOUNTS.map((a) => {
      const tokens = apiTokens(a.slug);
      return [
        a.slug,
        {
          name: a.name,
          email: a.email,
          password: DEMO_PASSWORD,
          readToken: tokens.read,
          fullToken: tokens.full,
          currency: a.currency,
          publishingTenant: a.publishingTenant,
          propertyIds: a.properties.map((_, i) => propertyId(a.slug, i)),
        },
      ];
    }),
  );
  return { password: DEMO_PASSWORD, publishing, lodging };
}
