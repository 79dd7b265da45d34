import type { RequestOf } from '../../../shared';
import { callApi } from './api-client';
import { KEYS } from './keys';

/** The signed-in member's own profile (null while not configured). */
export const profileQuery = {
  queryKey: KEYS.profile,
  queryFn: ({ signal }: { signal: AbortSignal }) => callApi('getProfile', { signal }),
};

export const saveProfile = (body: RequestOf<'saveProfile'>) => callApi('saveProfile', { body });
