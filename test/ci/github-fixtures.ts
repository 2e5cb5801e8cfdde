// Shared by the tests of the action's edge to GitHub: the marker that opens the action's own comment.

/** The first line of every comment the action posts for this tool and spec. */
export const MARKER = '<!-- benchgrid:bench-change tool=hookkit spec=sourced -->';
