import { formatPrice, stayDate } from '../i18n/format.ts';
import type { I18n } from '../i18n/index.ts';
import type { ManagedStay } from './manage-stay.ts';

/** The manage page's texts and summary rows for one stay, in the tenant's language. */
export function manageView(stay: ManagedStay, { t, locale }: Pick<I18n, 't' | 'locale'>) {
  const headline = {
    received: ['widget.doneReceived', 'widget.doneReceivedText', 'widget.statusReceived'],
    confirmed: ['widget.doneConfirmed', 'widget.doneConfirmedText', 'widget.statusConfirmed'],
    cancelled: ['widget.doneCancelled', 'widget.doneCancelledText', 'widget.statusCancelled'],
    other: ['widget.doneOther', 'widget.doneOtherText', null],
  } as const;
  const [heading, text, status] = headline[stay.kind];
  const { property } = stay;
  const address = [property.address, property.city].filter(Boolean).join(', ');
  const at = (time: string | undefined, key: 'widget.timeFrom' | 'widget.timeUntil') =>
    time ? ` · ${t(key, { time })}` : '';
  const rows: [string, string][] = [
    [t('widget.reference'), stay.reference],
    [t('widget.status'), status ? t(status) : stay.status],
    [t('widget.place'), property.name],
    ...(address ? [[t('widget.address'), address] as [string, string]] : []),
    ...(stay.roomName ? [[t('widget.room'), stay.roomName] as [string, string]] : []),
    [
      t('widget.checkIn'),
      stayDate(stay.checkIn, locale) + at(property.checkInTime, 'widget.timeFrom'),
    ],
    [
      t('widget.checkOut'),
      stayDate(stay.checkOut, locale) + at(property.checkOutTime, 'widget.timeUntil'),
    ],
    [t('widget.nightsLabel'), String(stay.nights)],
    [
      t('widget.guestsLabel'),
      `${t('widget.adults', { count: stay.adults })}, ${t('widget.children', { count: stay.children })}`,
    ],
    ...(stay.totalPrice === null
      ? []
      : [
          [t('widget.total'), formatPrice(stay.totalPrice, stay.currency, locale)] as [
            string,
            string,
          ],
        ]),
  ];
  return {
    heading: t(heading),
    text: t(text, { status: stay.status }),
    rows,
    address,
    cancellable: stay.kind === 'received' || stay.kind === 'confirmed',
  };
}
