import type { HandlerFactory } from '../registry';

export const BILLING_HANDLERS: Record<string, HandlerFactory> = {};
