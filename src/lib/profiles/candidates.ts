/**
 * Names real APIs use for each of the site's field names (segments of a need such as
 * `category.name` are tried separately). A hint only: the doctor finds a field by what its values
 * are (./doctor/field-finder.ts) and uses these to rank places that fit equally well.
 */
const SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  id: ['id', 'uid', 'uuid', 'key', 'identifier', '_id'],
  title: ['title', 'headline', 'heading', 'name', 'label', 'subject'],
  name: ['name', 'label', 'title', 'display', 'display_name', 'full_name'],
  slug: ['slug', 'handle', 'permalink', 'code', 'key', 'path'],
  content: ['content', 'body', 'body_html', 'html', 'text'],
  excerpt: ['excerpt', 'summary', 'teaser', 'lead', 'description'],
  published_at: [
    'published_at',
    'published_on',
    'publish_date',
    'issue_date',
    'date',
    'published',
    'released_at',
    'created_at',
  ],
  created_at: ['created_at', 'posted_at', 'date', 'timestamp', 'submitted_at'],
  author: ['author', 'writer', 'byline', 'user'],
  author_name: [
    'author_name',
    'author.name',
    'author.display',
    'author.display_name',
    'byline',
    'user.name',
  ],
  cover_image_url: [
    'cover_image_url',
    'cover',
    'cover_url',
    'cover_image',
    'image',
    'image_url',
    'thumbnail',
  ],
  page_count: ['page_count', 'pages_total', 'num_pages', 'page_total', 'pages_count'],
  price: ['price', 'amount', 'cost', 'price_amount'],
  currency: ['currency', 'currency_code', 'iso_currency'],
  interval: ['interval', 'billing_period', 'period', 'billing_interval', 'frequency'],
  status: ['status', 'state', 'booking_status', 'phase'],
  city: ['city', 'town', 'locality', 'location.town', 'location.city', 'address.city'],
  category: ['category', 'section', 'department'],
  tag: ['tag', 'topic', 'keyword', 'label'],
  posts: ['posts', 'articles', 'stories', 'items'],
  room_types: ['room_types', 'rooms', 'room_categories', 'categories', 'units', 'offers'],
  room_type_id: ['room_type_id', 'category_id', 'category_ref', 'room_id', 'unit_id', 'id'],
  available_rooms: [
    'available_rooms',
    'free_units',
    'units_available',
    'available_units',
    'vacancies',
    'remaining',
  ],
  total_price: ['total_price', 'total', 'price.total', 'grand_total', 'total_amount', 'amount'],
  max_occupancy: [
    'max_occupancy',
    'sleeps',
    'capacity.total',
    'capacity',
    'occupancy',
    'max_guests',
  ],
  reference: ['reference', 'locator', 'confirmation_code', 'booking_reference', 'code'],
  check_in: ['check_in', 'arrival', 'arrival_date', 'from', 'start_date', 'stay.from'],
  check_out: ['check_out', 'departure', 'departure_date', 'to', 'end_date', 'stay.to'],
  guest_id: ['guest_id', 'guest_ref', 'guest.id', 'customer_id'],
  property_id: ['property_id', 'property_ref', 'property.id', 'hotel_id', 'hotel_ref'],
  first_name: ['first_name', 'given_name', 'firstname', 'forename'],
  last_name: ['last_name', 'family_name', 'lastname', 'surname'],
  email: ['email', 'email_address', 'mail', 'e_mail'],
  token: ['token', 'access_token', 'api_token', 'plain_text_token'],
};

/** Every path the synonyms give for `need` (each dotted segment expanded), the need itself first. */
function spellings(need: string): string[] {
  if (SYNONYMS[need]) return [...SYNONYMS[need]];
  return need.split('.').reduce<string[]>(
    (paths, segment) => {
      const options = SYNONYMS[segment] ?? [segment];
      return paths.flatMap((path) =>
        options.map((option) => (path ? `${path}.${option}` : option)),
      );
    },
    [''],
  );
}

/** The words of a name: `grandTotal`, `grand_total`, `grand-total.amount` → grand, total, amount. */
export function tokens(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/**
 * How well the name at `path` reads as `need`: 6 the same, 4 a usual other name, 2 a word in
 * common (`grand_total` for `total_price`), 0 none.
 */
export function nameHint(path: string, need: string): number {
  if (path === need) return 6;
  if (spellings(need).includes(path)) return 4;
  const leaf = need.split('.').at(-1) ?? need;
  const last = path.split('.').at(-1) ?? path;
  if (last === leaf || (SYNONYMS[leaf] ?? []).includes(last)) return 3;
  const wanted = new Set(tokens(need).filter((t) => t !== 'at'));
  return tokens(path).some((t) => wanted.has(t)) ? 2 : 0;
}
