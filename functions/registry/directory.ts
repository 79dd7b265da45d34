import type { HandlerFactory } from '../registry';

export const DIRECTORY_HANDLERS: Record<string, HandlerFactory> = {};
