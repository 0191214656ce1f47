import type { I18n } from '../../i18n/index.ts';
import { widgetSay } from '../../i18n/widget.ts';
import type { Confirmation, PropertySummary } from '../service/lodging-shapes.ts';
import { normalizeStatus, type StatusKind } from '../domain/status.ts';
import { summaryRows } from '../steps/summary-rows.ts';

/** What the views show of the property (of a fresh confirmation's, maybe its name alone). */
type Place = Pick<PropertySummary, 'name' | 'city' | 'address' | 'checkInTime' | 'checkOutTime'>;

/** Heading, text and status words per status kind (`widget.*` keys without the prefix). */
const STATUS_TEXT = {
  received: { heading: 'doneReceived', text: 'doneReceivedText', status: 'statusReceived' },
  confirmed: { heading: 'doneConfirmed', text: 'doneConfirmedText', status: 'statusConfirmed' },
  cancelled: { heading: 'doneCancelled', text: 'doneCancelledText', status: 'statusCancelled' },
  other: { heading: 'doneOther', text: 'doneOtherText', status: null },
} as const satisfies Record<StatusKind, { heading: string; text: string; status: string | null }>;

/** Words for the API's statuses that are neither on nor off (`other`); others stay its own word. */
const OTHER_WORDS: Readonly<Record<string, string>> = {
  checked_in: 'statusCheckedIn',
  checked_out: 'statusCheckedOut',
  no_show: 'statusNoShow',
};

/**
 * The manage page's (and the booking's last step's and mail's) texts and summary rows, in the
 * tenant's language; a fresh confirmation's property, when not listed, by its name alone.
 */
export function manageView(
  stay: Confirmation & { property: Place | undefined; begun?: boolean },
  i18n: Pick<I18n, 't' | 'locale'>,
) {
  const say = widgetSay(i18n);
  const property = stay.property ?? { name: stay.propertyName, city: null };
  const address = [property.address, property.city].filter(Boolean).join(', ');
  const text = STATUS_TEXT[stay.statusKind];
  const active = stay.statusKind === 'received' || stay.statusKind === 'confirmed';
  const word = text.status ?? OTHER_WORDS[normalizeStatus(stay.status)];
  // A status Masthead does not know (`on_request`, …) is named by the lodging API's own word.
  const status = word ? say(word) : stay.status;
  return {
    heading: say(text.heading, { status }),
    text: say(text.text, { status }),
    rows: summaryRows(
      {
        ...stay,
        status,
        place: property.name,
        address,
        room: stay.roomName,
        checkInTime: property.checkInTime,
        checkOutTime: property.checkOutTime,
        total: stay.totalPrice,
      },
      say,
      i18n.locale,
    ),
    address,
    /** Still on, but its check-in day has begun: no cancel online, the hotel is asked instead. */
    begun: active && stay.begun === true,
    cancellable: active && stay.begun !== true,
  };
}
