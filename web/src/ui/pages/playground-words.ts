// What the playground says in the places its first screen (first-screen.ts) draws too, so that
// the screen drawn before its code has arrived reads as the one that replaces it.
export const WORDS = {
  startHere: 'Start here: type any sentence. Every step below recomputes as you type.',
  // what the page says of random weights where a pattern seems to show
  random: 'These weights are random: the pattern means nothing.',
  openModel: 'Open the trained model',
  uniform: 'These weights are nearly uniform (each row’s largest is under 0.5), so on 0 to 1 they look alike.',
  relativeAll: 'colour each row by its own largest',
} as const;
