// The worker's eligibility text for the job classes the policy opens to it. The worker's gate
// (docs/worker/gate.md, "Eligibility") bounds two things a pending job's payload states, its
// output resolution and its frame rate, and each only from above; the classes (docs/pool/design.md,
// "Job classes and their gates") are drawn by the larger of the output and source heights, by
// the video's length and, for XL, by the frame rate. The gate cannot see a video's length or
// its source's height: PeerTube's job payload carries neither, and the pool learns them from
// the video itself. So the text can only be the tightest bound that still lets in every job
// of every open class, and a mask whose closed classes that bound would not hold back at all
// cannot be carried.
//
// The mapping, exactly (S = small_max_height, M = medium_max_height of the bounds):
//
//   open classes     text                        the jobs of closed classes it holds back
//   S                max-resolution=S            every output above S (of M, L and XL); not
//                                                 M's long videos at S or below, nor an L or
//                                                 XL job transcoding a 4K source to S or below
//   S, M             max-resolution=max(S, M)    every output above that (of L and XL); not
//                                                 an L or XL job transcoding a 4K source to it
//                                                 or below
//   S, M, L, XL      "" (every job)              none: nothing is closed
//   anything else    Unsupported
//
// The text never has max-fps. Every class has jobs at any frame rate (an S job may be
// 1080p60, and L holds short 4K videos at 60 fps), so a frame-rate bound refuses jobs of some
// open class whatever is open; and XL, the one class drawn by frame rate, is held apart from
// L by the video's length, which the gate cannot see. Hence the masks that cannot be carried:
// with L or XL open, no height bound can be set (their outputs reach every height, and a 4K
// source transcoded to 720p is L), so closing S or M, or closing one of L and XL but not the
// other, would hold back nothing; a mask with M open and S closed, likewise, as every S job's
// output fits under M's bound. The empty mask cannot be carried either: the gate has no bound
// that refuses every job, and a worker that should take nothing is drained instead.
//
// The text names no job types, which takes every VOD type the worker does: the pool decides
// the classes, and a type restriction an operator set on the worker is replaced by it.
#pragma once

#include <string>

#include "common/base/result.h"
#include "pool/policy/job_class.h"

namespace mc::pool_service {

// EligibilityText is what POST /eligibility takes for the classes `open` opens, by the table
// above; a mask outside the table is Unsupported, naming the classes it would leave open
// that it meant to close, and why.
Result<std::string> EligibilityText(pool::ClassMask open, const pool::ClassBounds& bounds);

// ClassMaskText writes a mask as "S+M" ("none" when empty), for messages and logs.
std::string ClassMaskText(pool::ClassMask mask);

}  // namespace mc::pool_service
