import type { HandlerFactory } from '../registry';

export const SCHEDULING_HANDLERS: Record<string, HandlerFactory> = {};
