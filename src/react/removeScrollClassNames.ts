// The part of react-remove-scroll that Mantine's AppShell header, footer and aside use: the class
// names that keep fixed elements clear of the scrollbar while a modal locks the page's scroll.
// The build gives them this copy (src/cli/firstScreenShimsPlugin.ts); Modal still gets the
// package, and its scroll lock offsets elements with these same class names.
export const RemoveScroll = {
  classNames: {
    zeroRight: 'right-scroll-bar-position',
    fullWidth: 'width-before-scroll-bar',
  },
} as const;
