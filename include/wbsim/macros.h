/* SPDX-License-Identifier: MIT */
/*
 * wbsim/macros.h - visibility and C++ linkage helpers shared by every
 * public header.
 */
#ifndef WBSIM_MACROS_H
#define WBSIM_MACROS_H

#if defined(__GNUC__) || defined(__clang__)
#define WBSIM_API __attribute__((visibility("default")))
#else
#define WBSIM_API
#endif

#ifdef __cplusplus
#define WBSIM_BEGIN_DECLS extern "C" {
#define WBSIM_END_DECLS }
#else
#define WBSIM_BEGIN_DECLS
#define WBSIM_END_DECLS
#endif

#endif /* WBSIM_MACROS_H */
