// Units for the demo: editls.replaceRange edits an exact range here.
export const MAX_SIZE = 1024;
export const LABEL = "size in KiB";

export interface Limits {
  maxSize: number;
}
