import { describe, expect, it } from 'vitest';

import { FormEncodingError, parseStripeForm } from '../../../../../lib/local/stripe/form';

describe('parseStripeForm', () => {
  it('builds nested objects and arrays from bracketed keys, as Stripe reads the SDK', () => {
    // Arrange
    const encoded = [
      'mode=subscription',
      'line_items[0][price_data][currency]=eur',
      'line_items[0][price_data][recurring][interval]=month',
      'line_items[0][quantity]=1',
      'line_items[1][price_data][product_data][name]=Licence%20%E2%80%94%20paiement',
      'discounts[0][promotion_code]=promo_1',
      'success_url=http%3A%2F%2Flocalhost%2Fok%3Fsession_id%3D%7BCHECKOUT_SESSION_ID%7D',
      'expand[0]=data.promotion.coupon',
    ].join('&');

    // Act
    const form = parseStripeForm(encoded);

    // Assert
    expect(form).toEqual({
      mode: 'subscription',
      line_items: [
        { price_data: { currency: 'eur', recurring: { interval: 'month' } }, quantity: '1' },
        { price_data: { product_data: { name: 'Licence — paiement' } } },
      ],
      discounts: [{ promotion_code: 'promo_1' }],
      success_url: 'http://localhost/ok?session_id={CHECKOUT_SESSION_ID}',
      expand: ['data.promotion.coupon'],
    });
  });

  it('appends `key[]` values to an array', () => {
    // Act
    const form = parseStripeForm('expand[]=a&expand[]=b');

    // Assert
    expect(form).toEqual({ expand: ['a', 'b'] });
  });

  it.each([
    ['an unclosed bracket', 'line_items[0=x'],
    ['a key used as a value and as an object', 'metadata=x&metadata[a]=y'],
    ['an object key inside an array', 'line_items[0]=x&line_items[a]=y'],
  ])('refuses %s', (_label, encoded) => {
    // Act
    const parse = () => parseStripeForm(encoded);

    // Assert
    expect(parse).toThrow(FormEncodingError);
  });
});
