//! The system's user and group database (through libc): who a user is, which users a
//! group has. What the writers check of [`crate::trust`] asks.

use std::ffi::CStr;

/// A user's name and primary group.
pub struct User {
    /// The user's name.
    pub name: Vec<u8>,
    /// The user's primary group.
    pub gid: u32,
}

/// A group's name and listed members.
pub struct Group {
    /// The group's name.
    pub name: Vec<u8>,
    /// The group's id.
    pub gid: u32,
    /// The users the group lists as members (not those whose primary group it is).
    pub members: Vec<Vec<u8>>,
}

/// Calls a `get*_r` function with a growing buffer; `None` when there is no entry.
fn with_buffer<T>(mut call: impl FnMut(&mut [u8]) -> Result<Option<T>, i32>) -> Option<T> {
    let mut size = 1024;
    while size <= 1 << 20 {
        let mut buf = vec![0u8; size];
        match call(&mut buf) {
            Ok(found) => return found,
            Err(libc::ERANGE) => size *= 4,
            Err(libc::EINTR) => {}
            Err(_) => return None,
        }
    }
    None
}

/// The user with this id.
pub fn user(uid: u32) -> Option<User> {
    with_buffer(|buf| {
        // SAFETY: `pwd` and `buf` outlive the call; the result points into them and
        // is copied out before they go.
        unsafe {
            let mut pwd: libc::passwd = std::mem::zeroed();
            let mut found: *mut libc::passwd = std::ptr::null_mut();
            let rc = libc::getpwuid_r(
                uid,
                &mut pwd,
                buf.as_mut_ptr().cast(),
                buf.len(),
                &mut found,
            );
            if rc != 0 {
                return Err(rc);
            }
            if found.is_null() || pwd.pw_name.is_null() {
                return Ok(None);
            }
            Ok(Some(User {
                name: CStr::from_ptr(pwd.pw_name).to_bytes().to_vec(),
                gid: pwd.pw_gid,
            }))
        }
    })
}

/// The names of the users whose primary group is `gid` (`None`: the users cannot be
/// listed here).
pub fn primary_group_of(gid: u32) -> Option<Vec<Vec<u8>>> {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        // The list is one cursor per process: one reader at a time.
        static LISTING: std::sync::Mutex<()> = std::sync::Mutex::new(());
        let _one = LISTING.lock().unwrap_or_else(|e| e.into_inner());
        let mut names = Vec::new();
        let mut buf = vec![0u8; 1 << 16];
        // SAFETY: `pwd` and `buf` outlive each call; the entry's strings point into
        // `buf` and are copied out before the next call. The cursor is opened and
        // closed here, under the lock.
        let complete = unsafe {
            libc::setpwent();
            let complete = loop {
                let mut pwd: libc::passwd = std::mem::zeroed();
                let mut found: *mut libc::passwd = std::ptr::null_mut();
                let rc = libc::getpwent_r(&mut pwd, buf.as_mut_ptr().cast(), buf.len(), &mut found);
                if rc == libc::ENOENT || (rc == 0 && found.is_null()) {
                    break true;
                }
                if rc != 0 {
                    break false;
                }
                if pwd.pw_gid == gid && !pwd.pw_name.is_null() {
                    names.push(CStr::from_ptr(pwd.pw_name).to_bytes().to_vec());
                }
            };
            libc::endpwent();
            complete
        };
        complete.then_some(names)
    }
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    {
        let _ = gid;
        None
    }
}

/// The group with this id.
pub fn group(gid: u32) -> Option<Group> {
    with_buffer(|buf| {
        // SAFETY: as in `user`; `gr_mem` is a null-terminated array of C strings.
        unsafe {
            let mut grp: libc::group = std::mem::zeroed();
            let mut found: *mut libc::group = std::ptr::null_mut();
            let rc = libc::getgrgid_r(
                gid,
                &mut grp,
                buf.as_mut_ptr().cast(),
                buf.len(),
                &mut found,
            );
            if rc != 0 {
                return Err(rc);
            }
            if found.is_null() || grp.gr_name.is_null() {
                return Ok(None);
            }
            let mut members = Vec::new();
            let mut m = grp.gr_mem;
            while !m.is_null() && !(*m).is_null() {
                members.push(CStr::from_ptr(*m).to_bytes().to_vec());
                m = m.add(1);
            }
            Ok(Some(Group {
                name: CStr::from_ptr(grp.gr_name).to_bytes().to_vec(),
                gid: grp.gr_gid,
                members,
            }))
        }
    })
}
