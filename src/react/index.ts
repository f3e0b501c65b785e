export type { Components, CustomScreenProps, DemoAccount, WidgetProps } from './context.ts';
export { useRuntime } from './context.ts';
export {
  useCreate,
  useHistory,
  useList,
  useRow,
  useTransitionMutation as useTransition,
  useUpdate,
} from './hooks.ts';
export { NinefoldApp, type NinefoldAppProps, theme } from './NinefoldApp.tsx';
