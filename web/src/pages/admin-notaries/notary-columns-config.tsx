import Badge from '@cloudscape-design/components/badge';
import Button from '@cloudscape-design/components/button';
import SpaceBetween from '@cloudscape-design/components/space-between';
import type { TableProps } from '@cloudscape-design/components/table';

import type { Lawyer } from '../../../../shared';
import { formatDate } from '../../format/dates';
import { ADMIN_NOTARIES_TEXT as TEXT } from './strings';

export const fullName = (lawyer: Lawyer) => `${lawyer.firstName} ${lawyer.lastName}`;

/** What a notary's row buttons open; the page owns the dialogs. */
export interface NotaryRowActions {
  details(notary: Lawyer): void;
  remove(notary: Lawyer): void;
}

/** The notaries' columns (spec §2): name, e-mail, Google OAuth, creation date, actions. */
export function notaryColumns(actions: NotaryRowActions): TableProps.ColumnDefinition<Lawyer>[] {
  return [
    { id: 'name', header: TEXT.columns.name, cell: fullName },
    { id: 'email', header: TEXT.columns.email, cell: (notary) => notary.email },
    {
      id: 'google',
      header: TEXT.columns.googleOAuth,
      cell: (notary) =>
        notary.hasGoogleCredentials ? (
          <Badge color="green">{TEXT.configured}</Badge>
        ) : (
          <Badge color="grey">{TEXT.notConfigured}</Badge>
        ),
    },
    { id: 'createdAt', header: TEXT.columns.createdAt, cell: (notary) => formatDate(notary.createdAt) },
    {
      id: 'actions',
      header: TEXT.columns.actions,
      cell: (notary) => (
        <SpaceBetween direction="horizontal" size="xxs">
          <Button
            variant="inline-icon"
            iconName="search"
            ariaLabel={TEXT.detailsOf(fullName(notary))}
            onClick={() => actions.details(notary)}
          />
          <Button
            variant="inline-icon"
            iconName="remove"
            ariaLabel={TEXT.deleteOf(fullName(notary))}
            onClick={() => actions.remove(notary)}
          />
        </SpaceBetween>
      ),
    },
  ];
}
