import Box from '@cloudscape-design/components/box';
import Container from '@cloudscape-design/components/container';
import Header from '@cloudscape-design/components/header';
import KeyValuePairs from '@cloudscape-design/components/key-value-pairs';
import SpaceBetween from '@cloudscape-design/components/space-between';

import { PRICES } from '../../config/prices';
import { SUBSCRIPTION_TEXT as TEXT } from './strings';

/**
 * The public prices (spec §1, §9): 950 € once, then 150 € a month, VAT not applicable; and what the
 * checkout charges on the day, the licence with the first month (1 100 €), as Stripe's page says.
 */
export function PricingCard() {
  return (
    <Container header={<Header variant="h2">{TEXT.pricing.title}</Header>}>
      <SpaceBetween size="m">
        <KeyValuePairs
          columns={2}
          items={[
            {
              label: TEXT.pricing.initial,
              value: (
                <Box fontSize="heading-m" fontWeight="bold">
                  {PRICES.initial} {TEXT.pricing.inclTax}
                </Box>
              ),
            },
            {
              label: TEXT.pricing.monthly,
              value: (
                <>
                  <Box fontSize="heading-m" fontWeight="bold">
                    {PRICES.monthly} {TEXT.pricing.inclTax}
                  </Box>
                  <Box variant="small">{TEXT.pricing.perMonth}</Box>
                </>
              ),
            },
          ]}
        />
        <Box>{TEXT.pricing.dueAtPurchase(PRICES.firstPayment, PRICES.initial, PRICES.monthly)}</Box>
        <Box variant="small" color="text-body-secondary">
          {PRICES.vatNotice}. {TEXT.pricing.noCommitment}
        </Box>
      </SpaceBetween>
    </Container>
  );
}
