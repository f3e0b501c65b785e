// A module of its own for the dynamic import in Notifications.tsx: importing the package itself
// there would share one chunk with the store the screens import statically (display.tsx), and
// the container would load with the first screen after all.
export { Notifications as ToastContainer } from '@mantine/notifications';
