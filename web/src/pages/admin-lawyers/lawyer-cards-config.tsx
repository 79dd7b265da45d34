import Badge from '@cloudscape-design/components/badge';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import type { CardsProps } from '@cloudscape-design/components/cards';
import KeyValuePairs from '@cloudscape-design/components/key-value-pairs';
import SpaceBetween from '@cloudscape-design/components/space-between';

import type { Lawyer } from '../../../../shared';
import { formatDate } from '../../format/dates';
import { ADMIN_LAWYERS_TEXT as TEXT } from './strings';

export const fullName = (lawyer: Pick<Lawyer, 'firstName' | 'lastName'>) =>
  `${lawyer.firstName} ${lawyer.lastName}`;

/** What a lawyer's card buttons open; the page owns the dialogs. */
export interface LawyerCardActions {
  details(lawyer: Lawyer): void;
  remove(lawyer: Lawyer): void;
}

/** A lawyer's card (spec §2): Google password, e-mail (and whether it was undelivered), office, main e-mail, licence key, creation date. */
export function lawyerCard(actions: LawyerCardActions): CardsProps.CardDefinition<Lawyer> {
  return {
    header: (lawyer) => fullName(lawyer),
    sections: [
      {
        id: 'google',
        content: (lawyer) =>
          lawyer.hasGooglePassword ? (
            <Badge color="green">{TEXT.googlePasswordSet}</Badge>
          ) : (
            <Badge color="grey">{TEXT.googlePasswordMissing}</Badge>
          ),
      },
      { id: 'email', header: TEXT.email, content: (lawyer) => lawyer.email },
      {
        // SES reported his licence e-mail bounced or complained of: the admin sends it again.
        id: 'licenseEmail',
        content: (lawyer) =>
          lawyer.licenseEmailUndeliveredAt ? <Badge color="red">{TEXT.licenseEmailUndelivered}</Badge> : null,
      },
      { id: 'office', header: TEXT.office, content: (lawyer) => lawyer.officeName ?? '—' },
      {
        // Spec §2 "main e-mail if different": no label at all when it is the same address.
        id: 'mainEmail',
        content: (lawyer) =>
          lawyer.mainEmail !== lawyer.email ? (
            <KeyValuePairs items={[{ label: TEXT.mainEmail, value: lawyer.mainEmail }]} />
          ) : null,
      },
      {
        id: 'licenseKey',
        header: TEXT.licenseKey,
        content: (lawyer) => <Box variant="code">{lawyer.licenseKey ?? TEXT.noLicenseKey}</Box>,
      },
      { id: 'createdAt', header: TEXT.createdAt, content: (lawyer) => formatDate(lawyer.createdAt) },
      {
        id: 'actions',
        content: (lawyer) => (
          <SpaceBetween direction="horizontal" size="xs">
            <Button ariaLabel={TEXT.detailsOf(fullName(lawyer))} onClick={() => actions.details(lawyer)}>
              {TEXT.details}
            </Button>
            <Button ariaLabel={TEXT.deleteOf(fullName(lawyer))} onClick={() => actions.remove(lawyer)}>
              {TEXT.delete}
            </Button>
          </SpaceBetween>
        ),
      },
    ],
  };
}
