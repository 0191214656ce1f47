import type { I18n } from '../i18n/index.ts';
import { widgetSay } from '../i18n/widget.ts';
import type { ManagedStay } from './manage-stay.ts';
import { STATUS_TEXT, stayRows } from './summary-rows.ts';

/** The manage page's texts and summary rows for one stay, in the tenant's language. */
export function manageView(stay: ManagedStay, i18n: Pick<I18n, 't' | 'locale'>) {
  const say = widgetSay(i18n);
  const { property } = stay;
  const address = [property.address, property.city].filter(Boolean).join(', ');
  const text = STATUS_TEXT[stay.kind];
  return {
    heading: say(text.heading),
    text: say(text.text, { status: stay.status }),
    rows: stayRows(
      {
        ...stay,
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
    cancellable: stay.kind === 'received' || stay.kind === 'confirmed',
  };
}
