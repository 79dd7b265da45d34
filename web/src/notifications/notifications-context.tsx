import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';

export type NotificationType = 'success' | 'info' | 'warning' | 'error';

export interface Notification {
  readonly id: string;
  readonly type: NotificationType;
  /** Text, or text with its details (a failure's plain words and the recorded message). */
  readonly content: ReactNode;
}

/** How long a toast stays before it leaves by itself; warnings and errors stay longer to be read. */
export const NOTIFICATION_LIFETIME_MS: Record<NotificationType, number> = {
  success: 5_000,
  info: 5_000,
  warning: 8_000,
  error: 8_000,
};

/** Older toasts leave when more than this many are shown. */
const MAX_NOTIFICATIONS = 5;

/** What pages use to raise toasts; stable for the life of the app. */
export interface Notifier {
  notify(type: NotificationType, content: ReactNode): void;
  success(content: ReactNode): void;
  info(content: ReactNode): void;
  warning(content: ReactNode): void;
  error(content: ReactNode): void;
  dismiss(id: string): void;
}

const NotifierContext = createContext<Notifier | null>(null);
const NotificationListContext = createContext<readonly Notification[]>([]);

/** Holds the toasts of the whole app; the Flashbar of the current layout shows them. */
export function NotificationsProvider({ children }: { readonly children: ReactNode }) {
  const [notifications, setNotifications] = useState<readonly Notification[]>([]);
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());
  const counter = useRef(0);

  const dismiss = useCallback((id: string) => {
    const timer = timers.current.get(id);
    if (timer) clearTimeout(timer);
    timers.current.delete(id);
    setNotifications((current) => current.filter((notification) => notification.id !== id));
  }, []);

  const notify = useCallback(
    (type: NotificationType, content: ReactNode) => {
      counter.current += 1;
      const id = `notification-${counter.current}`;
      setNotifications((current) => [{ id, type, content }, ...current].slice(0, MAX_NOTIFICATIONS));
      timers.current.set(
        id,
        setTimeout(() => dismiss(id), NOTIFICATION_LIFETIME_MS[type]),
      );
    },
    [dismiss],
  );

  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const timer of pending.values()) clearTimeout(timer);
      pending.clear();
    };
  }, []);

  const notifier = useMemo<Notifier>(
    () => ({
      notify,
      success: (content) => notify('success', content),
      info: (content) => notify('info', content),
      warning: (content) => notify('warning', content),
      error: (content) => notify('error', content),
      dismiss,
    }),
    [notify, dismiss],
  );

  return (
    <NotifierContext.Provider value={notifier}>
      <NotificationListContext.Provider value={notifications}>{children}</NotificationListContext.Provider>
    </NotifierContext.Provider>
  );
}

/** Raises toasts: `const notifications = useNotifications(); notifications.success('...')`. */
export function useNotifications(): Notifier {
  const notifier = useContext(NotifierContext);
  if (!notifier) throw new Error('useNotifications must be used inside NotificationsProvider');
  return notifier;
}

/** The toasts currently shown, newest first. */
export function useNotificationList(): readonly Notification[] {
  return useContext(NotificationListContext);
}
