/* SES's events about the product's e-mails, as EventBridge delivers them to the recorder. */

/** What SES publishes to EventBridge for a bounce of a send naming the configuration set (trimmed to its shape). */
export function sesBounce(tags: Readonly<Record<string, string>>, bounceType = 'Permanent') {
  return {
    version: '0',
    id: 'c0a1b2c3-0000-4000-8000-000000000001',
    'detail-type': 'Email Bounced',
    source: 'aws.ses',
    account: '123456789012',
    time: '2026-11-27T10:00:05Z',
    region: 'eu-west-3',
    resources: ['arn:aws:ses:eu-west-3:123456789012:configuration-set/MailDeliveryConfigurationSet'],
    detail: {
      eventType: 'Bounce',
      bounce: {
        feedbackId: '0102018f-bounce',
        bounceType,
        bounceSubType: 'General',
        bouncedRecipients: [
          { emailAddress: 'acheteur@cabinet-inconnu.fr', action: 'failed', status: '5.1.1' },
        ],
        timestamp: '2026-11-27T10:00:04.000Z',
        reportingMTA: 'dns; a1-2.smtp-out.eu-west-3.amazonses.com',
      },
      mail: {
        timestamp: '2026-11-27T10:00:00.000Z',
        source: 'Assistant IA juridique <licences@cabinet.example>',
        messageId: '0102018f-message',
        destination: ['acheteur@cabinet-inconnu.fr'],
        tags: {
          'ses:configuration-set': ['MailDeliveryConfigurationSet'],
          'ses:caller-identity': ['stripe-webhook'],
          ...Object.fromEntries(Object.entries(tags).map(([name, value]) => [name, [value]])),
        },
      },
    },
  };
}
