import Badge from '@cloudscape-design/components/badge';
import Button from '@cloudscape-design/components/button';
import type { CardsProps } from '@cloudscape-design/components/cards';
import KeyValuePairs from '@cloudscape-design/components/key-value-pairs';
import SpaceBetween from '@cloudscape-design/components/space-between';

import type { Lawyer } from '../../../../shared';
import { LicenseKeyReveal } from '../../components/lawyer-details/license-key-reveal';
import { formatDate } from '../../format/dates';
import { ADMIN_LAWYERS_TEXT as TEXT } from './strings';

export const fullName = (lawyer: Pick<Lawyer, 'firstName' | 'lastName'>) =>
  `${lawyer.firstName} ${lawyer.lastName}`;

/** What a lawyer's card buttons open; the page owns the dialogs. */
export interface LawyerCardActions {
  details(lawyer: Lawyer): void;
  remove(lawyer: Lawyer): void;
}

/**
 * A lawyer's card (spec §2): Google password, e-mail and main e-mail (and whether his licence
 * e-mail was undelivered), office, licence key, creation date.
 */
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
      {
        // Spec §2 "main e-mail if different": under the e-mail, and no label at all when it is the
        // same address (a section of its own would leave an empty gap on most cards).
        id: 'email',
        content: (lawyer) => (
          <SpaceBetween size="xs">
            <KeyValuePairs
              items={[
                { label: TEXT.email, value: lawyer.email },
                ...(lawyer.mainEmail !== lawyer.email
                  ? [{ label: TEXT.mainEmail, value: lawyer.mainEmail }]
                  : []),
              ]}
            />
            {/* SES reported his licence e-mail bounced or complained of: the admin sends it again. */}
            {lawyer.licenseEmailUndeliveredAt ? (
              <Badge color="red">{TEXT.licenseEmailUndelivered}</Badge>
            ) : null}
          </SpaceBetween>
        ),
      },
      { id: 'office', header: TEXT.office, content: (lawyer) => lawyer.officeName ?? '—' },
      {
        id: 'licenseKey',
        header: TEXT.licenseKey,
        content: (lawyer) => <LicenseKeyReveal lawyer={lawyer} />,
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
